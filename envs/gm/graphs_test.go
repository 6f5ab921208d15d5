package gm

import (
	"reflect"
	"slices"
	"testing"

	"spg-tui/envs/internal/envstest"
	"spg-tui/linalg/perm"
)

func TestGenerateGMDeterministic(t *testing.T) {
	p := Params{N: 15, Graph: ErdosRenyi, P: 0.3, Noise: 0.1}
	a1, a2, ap := Generate(envstest.RNG(73), p)
	b1, b2, bp := Generate(envstest.RNG(73), p)
	if !reflect.DeepEqual(a1, b1) || !reflect.DeepEqual(a2, b2) || !slices.Equal(ap, bp) {
		t.Fatal("the same seed gave different instances")
	}
	c1, _, _ := Generate(envstest.RNG(74), p)
	if reflect.DeepEqual(a1, c1) {
		t.Fatal("seeds 73 and 74 gave the same G1")
	}
}

func TestGenerateGMValidGraphs(t *testing.T) {
	cases := []Params{
		{N: 2, Graph: ErdosRenyi, P: 1},
		{N: 20, Graph: ErdosRenyi, P: 0.2, Noise: 0.05},
		{N: 20, Graph: ErdosRenyi, P: 0, Noise: 1},
		{N: 2, Graph: Regular, D: 1},
		{N: 7, Graph: Regular, D: 0},
		{N: 7, Graph: Regular, D: 6},
		{N: 8, Graph: Regular, D: 3, Noise: 0.1},
		{N: 9, Graph: Regular, D: 4},
		{N: 50, Graph: Regular, D: 3},
		{N: 50, Graph: Regular, D: 47},
	}
	for k, p := range cases {
		g1, g2, planted := Generate(envstest.RNG(uint64(k)), p)
		if err := CheckAdjacency("g1", g1, p.N); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		if err := CheckAdjacency("g2", g2, p.N); err != nil {
			t.Fatalf("%+v: %v", p, err)
		}
		if err := perm.Validate(planted); err != nil {
			t.Fatalf("%+v: planted: %v", p, err)
		}
		if p.Graph == Regular {
			for i, row := range g1 {
				d := 0
				for _, x := range row {
					d += int(x)
				}
				if d != p.D {
					t.Fatalf("%+v: node %d has degree %d", p, i, d)
				}
			}
		}
		if p.Noise == 0 && Objective(g1, g2, planted) != 1 {
			t.Fatalf("%+v: noiseless planted correspondence loses edges", p)
		}
		if p.Noise == 1 && p.P == 0 && Edges(g2) != p.N*(p.N-1)/2 {
			t.Fatalf("%+v: noise 1 on an empty graph should give the complete graph", p)
		}
	}
}

// Random regular graphs are not stuck near the circulant start: two draws differ and the
// edges of a 3-regular graph on 50 nodes are spread beyond the ring's short hops.
func TestRandomRegularMixes(t *testing.T) {
	a := randomRegular(envstest.RNG(1), 50, 3)
	b := randomRegular(envstest.RNG(2), 50, 3)
	if reflect.DeepEqual(a, b) {
		t.Fatal("two seeds gave the same regular graph")
	}
	ring := 0
	for i := range 50 {
		ring += int(a[i][(i+1)%50]) + int(a[i][(i+25)%50])
	}
	if ring > 20 {
		t.Fatalf("%d of 75 edges still on the circulant start", ring)
	}
}

func TestGMParamsValidate(t *testing.T) {
	bad := []Params{
		{N: 1, Graph: ErdosRenyi, P: 0.5},
		{N: 5, Graph: ErdosRenyi, P: 1.5},
		{N: 5, Graph: ErdosRenyi, P: 0.5, Noise: -0.1},
		{N: 5, Graph: Regular, D: 5},
		{N: 5, Graph: Regular, D: 3},
		{N: 5, Graph: Graph(9)},
	}
	for _, p := range bad {
		if p.Validate() == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}

func TestCheckAdjacency(t *testing.T) {
	good := [][]int8{{0, 1, 0}, {1, 0, 1}, {0, 1, 0}}
	if err := CheckAdjacency("g1", good, 3); err != nil {
		t.Fatal(err)
	}
	bad := map[string][][]int8{
		"asymmetric": {{0, 1, 0}, {0, 0, 1}, {0, 1, 0}},
		"non-0/1":    {{0, 2, 0}, {2, 0, 1}, {0, 1, 0}},
		"self-loop":  {{1, 1, 0}, {1, 0, 1}, {0, 1, 0}},
		"short row":  {{0, 1}, {1, 0, 1}, {0, 1, 0}},
		"wrong n":    {{0, 1}, {1, 0}},
	}
	for name, a := range bad {
		if err := CheckAdjacency("g1", a, 3); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
