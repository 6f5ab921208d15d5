package tsp

import (
	"fmt"
	"math"
	"testing"

	"spg-tui/envs"
	"spg-tui/envs/internal/envstest"
)

// benchDistances returns the distance matrix of test instance 0 of tsp-n.
func benchDistances(n int) []float64 {
	return envstest.Distances(newTSP(n).Generate(envs.SplitSeed(1, envs.Test), 0).Points)
}

func BenchmarkHeldKarp(b *testing.B) {
	for _, n := range []int{10, 15, 20} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := benchDistances(n)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := HeldKarp(d, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHeldKarpReferenceMean solves test instances 0, 1, ... of tsp-20, one per
// iteration, and with at least 200 of them checks the mean optimum against the notes'
// 3.846. Run it with e.g. -bench HeldKarpReferenceMean -benchtime 1000x (about 2 minutes).
func BenchmarkHeldKarpReferenceMean(b *testing.B) {
	env := newTSP(20)
	seed := envs.SplitSeed(1, envs.Test)
	var lengths []float64
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		d := envstest.Distances(env.Generate(seed, i).Points)
		_, length, err := HeldKarp(d, 20)
		if err != nil {
			b.Fatal(err)
		}
		lengths = append(lengths, length)
		i++
	}
	mean, tol := envstest.ReferenceTolerance(lengths, 0.001)
	b.ReportMetric(mean, "mean-tour")
	if len(lengths) >= 200 {
		if math.Abs(mean-3.846) > tol {
			b.Errorf("mean optimal tour %.4f over %d instances, reference 3.846 (tolerance %.4f)", mean, len(lengths), tol)
		}
	}
}

func BenchmarkChristofides(b *testing.B) {
	for _, n := range []int{20, 50} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := benchDistances(n)
			tour := make([]int, n)
			b.ReportAllocs()
			for b.Loop() {
				Christofides(d, n, tour)
			}
		})
	}
}

func BenchmarkTwoOpt(b *testing.B) {
	for _, n := range []int{20, 50} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			d := benchDistances(n)
			start := make([]int, n)
			NearestNeighbour(d, n, start)
			tour := make([]int, n)
			b.ReportAllocs()
			for b.Loop() {
				copy(tour, start)
				TwoOpt(d, n, tour)
			}
		})
	}
}
