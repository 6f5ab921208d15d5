package gm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
)

// TestGMFlipDataUnchanged pins the instances of specs without a noise model to those the
// version before noise-model drew, so that older runs resume, and older files regenerate, on
// the data they were made with.
func TestGMFlipDataUnchanged(t *testing.T) {
	for spec, want := range map[string]string{
		"":                                       "b93dac72254d355834e4f969c5d4a713aedf98c90c964c0951d4d9ab4738bede",
		"er:p=0.3,noise=0.1":                     "651928683bfb1b6e6c569a6ea852f1583997e99f6cde66f56ca1cd142425e421",
		"regular:d=4,noise=0.1":                  "8afd08b092a8118fde5127f8d4f6db4394fe41cdbedcd76494e10438889e3e1a",
		"regular:d=4,noise=0.1,noise-model=flip": "8afd08b092a8118fde5127f8d4f6db4394fe41cdbedcd76494e10438889e3e1a",
	} {
		env, err := envs.NewData(envs.TaskGM, 14, spec)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for i := range 20 {
			b, _ := json.Marshal(env.Generate(7, i))
			h.Write(b)
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("--data %q: instances hash to %s, want %s as before noise-model", spec, got, want)
		}
	}
}

// TestGMNowakNoise checks Nowak et al.'s model: G1 and the relabelling are flip's, about a
// fraction noise of G1's edges is removed, and as many edges are added as removed on average
// (the expected degree is kept), where flip adds (1-p)/p times as many.
func TestGMNowakNoise(t *testing.T) {
	const noise = 0.1
	for _, c := range []struct {
		family string
		p      Params
	}{
		{"er", Params{N: 40, Graph: ErdosRenyi, P: 0.2, Noise: noise}},
		{"regular", Params{N: 40, Graph: Regular, D: 6, Noise: noise}},
	} {
		nowak := c.p
		nowak.Model = Nowak
		var edges, removed, added, flipAdded int
		for k := range 200 {
			g1, g2, planted := Generate(envstest.RNG(uint64(k)), nowak)
			f1, f2, fplanted := Generate(envstest.RNG(uint64(k)), c.p)
			if !reflect.DeepEqual(g1, f1) || !reflect.DeepEqual(planted, fplanted) {
				t.Fatalf("%s instance %d: nowak drew another G1 or relabelling than flip", c.family, k)
			}
			for i := range g1 {
				for j := i + 1; j < len(g1); j++ {
					e, e2, fe2 := g1[i][j], g2[planted[i]][planted[j]], f2[planted[i]][planted[j]]
					edges += int(e)
					switch {
					case e == 1 && e2 == 0:
						removed++
					case e == 0 && e2 == 1:
						added++
					}
					if e == 0 && fe2 == 1 {
						flipAdded++
					}
				}
			}
			if err := CheckAdjacency("g2", g2, c.p.N); err != nil {
				t.Fatal(err)
			}
		}
		if frac := float64(removed) / float64(edges); math.Abs(frac-noise) > 0.01 {
			t.Errorf("%s: removed %.4f of G1's edges, want %v", c.family, frac, noise)
		}
		if r := float64(added) / float64(removed); math.Abs(r-1) > 0.05 {
			t.Errorf("%s: added %d edges for %d removed, want as many (the expected degree kept)", c.family, added, removed)
		}
		if r := float64(flipAdded) / float64(removed); r < 3 {
			t.Errorf("%s: flip added %d edges for nowak's %d removed; the test does not tell the models apart", c.family, flipAdded, removed)
		}
	}
}

// TestGMNoiseModelSpec checks noise-model's spelling, that the default data of new runs and
// files is Nowak et al.'s model, and its refusals.
func TestGMNoiseModelSpec(t *testing.T) {
	if envs.DefaultData(envs.TaskGM) != "er:p=0.2,noise=0.05,noise-model=nowak" {
		t.Errorf("gm's default data %q, want Nowak et al.'s model on ER p = 0.2, noise 0.05", envs.DefaultData(envs.TaskGM))
	}
	p, err := parseData(20, "regular:d=4,noise-model=nowak")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Params{N: 20, Graph: Regular, D: 4, Noise: 0.05, Model: Nowak}); p != want {
		t.Errorf("regular:d=4,noise-model=nowak read as %+v, want %+v", p, want)
	}
	if !strings.Contains(envs.DataUsage(), "noise-model=M") || !strings.Contains(envs.DataUsage(), "nowak") {
		t.Errorf("--data's help does not say noise-model's spelling: %s", envs.DataUsage())
	}
	for spec, want := range map[string]string{
		"er:noise-model=nowk":                     `unknown noise-model "nowk"`,
		"er:noise-model=nowak,noise-model=flip":   `"noise-model" given twice`,
		"er:p=0.9,noise=0.5,noise-model=nowak":    "probability 4.5 > 1",
		"regular:d=8,noise=0.9,noise-model=nowak": "need noise <=",
	} {
		_, err := envs.NewData(envs.TaskGM, 10, spec)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("--data %q: error %v, want one line containing %q", spec, err, want)
		}
	}
	// A complete G1 has no non-edges to add: nowak is valid at any noise.
	if _, err := envs.NewData(envs.TaskGM, 10, "er:p=1,noise=0.5,noise-model=nowak"); err != nil {
		t.Error(err)
	}
}
