package gm

import (
	"reflect"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestGMData checks that --data specifications give the graphs they describe, that the default
// specification is the default data bit for bit, and that bad ones are refused in one line.
func TestGMData(t *testing.T) {
	def, err := envs.NewData(envs.TaskGM, 12, "")
	if err != nil {
		t.Fatal(err)
	}
	same, err := envs.NewData(envs.TaskGM, 12, "er:p=0.2,noise=0.05")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if !reflect.DeepEqual(def.Generate(7, i), same.Generate(7, i)) {
			t.Fatalf("instance %d: er:p=0.2,noise=0.05 differs from the default data", i)
		}
	}
	reg, err := envs.NewData(envs.TaskGM, 12, "regular:d=4,noise=0")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		inst := reg.Generate(3, i)
		for v, row := range inst.G1 {
			deg := 0
			for _, x := range row {
				deg += int(x)
			}
			if deg != 4 {
				t.Fatalf("regular:d=4 instance %d: node %d has degree %d", i, v, deg)
			}
		}
		if got := Objective(inst.G1, inst.G2, inst.Planted); got != 1 {
			t.Fatalf("noise 0 instance %d: the planted correspondence preserves %v of the edges, want 1", i, got)
		}
	}
	dense, err := envs.NewData(envs.TaskGM, 30, "er:p=0.9")
	if err != nil {
		t.Fatal(err)
	}
	edges := 0
	for _, row := range dense.Generate(1, 0).G1 {
		for _, x := range row {
			edges += int(x)
		}
	}
	if frac := float64(edges) / (30 * 29); frac < 0.8 {
		t.Errorf("er:p=0.9 gave an edge density of %.2f", frac)
	}
	for _, c := range []struct {
		task       envs.Task
		spec, want string
	}{
		{envs.TaskGM, "ba", "unknown graph family"},
		{envs.TaskGM, "regular", "need d=D"},
		{envs.TaskGM, "regular:d=3", "n*d even"},
		{envs.TaskGM, "er:p=1.5", "edge probability"},
		{envs.TaskGM, "er:noise=-1", "noise"},
		{envs.TaskGM, "er:d=3", "unknown setting"},
		{envs.TaskGM, "er:p", "not key=value"},
		// The colon belongs to the optional settings, as sort's range[:k=K] refuses "range:".
		{envs.TaskGM, "er:", `"" is not key=value`},
		{envs.TaskGM, "regular:", `"" is not key=value`},
		{envs.TaskGM, "er:p=0.3,", `"" is not key=value`},
		{envs.TaskGM, "er:p=x", "not a number"},
		{envs.TaskGM, "er:p=0.3,p=0.4", `"p" given twice`},
		{envs.TaskGM, "regular:d=2,noise=0.1,noise=0.2", `"noise" given twice`},
	} {
		_, err := envs.NewData(c.task, 9, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s --data %q: error %v, want one line containing %q", c.task, c.spec, err, c.want)
		}
	}
	// Size 1 is checked at size 2 for what else holds, but a degree must be below the real n.
	if _, err := envs.NewData(envs.TaskGM, 1, "regular:d=1"); err == nil || !strings.Contains(err.Error(), "degree d = 1, need 0 <= d < n = 1") {
		t.Errorf("regular:d=1 at n = 1: %v", err)
	}
	if _, err := envs.NewData(envs.TaskGM, 1, "regular:d=0"); err != nil {
		t.Errorf("regular:d=0 at n = 1: %v", err)
	}
}
