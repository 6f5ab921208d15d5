package envs

import (
	"math"
	"testing"
)

func TestSplitSeedsDiffer(t *testing.T) {
	seeds := []uint64{0, 1, 2, 42, math.MaxUint64, math.MaxUint64 - 1, 0x9e3779b97f4a7c15}
	for s := uint64(3); s < 5000; s++ {
		seeds = append(seeds, s)
	}
	for _, seed := range seeds {
		tr, va, te := SplitSeed(seed, Train), SplitSeed(seed, Validation), SplitSeed(seed, Test)
		if tr == va || tr == te || va == te {
			t.Fatalf("seed %d: split seeds %d, %d, %d coincide", seed, tr, va, te)
		}
	}
}

func TestDatasetAt(t *testing.T) {
	env, _ := New(TaskMWM, 6)
	train := Dataset{Env: env, Seed: SplitSeed(7, Train), Size: DefaultTrainSize}
	test := Dataset{Env: env, Seed: SplitSeed(7, Test), Size: DefaultTestSize}
	// A late index is drawn directly, and agrees with a second draw and with Generate.
	last := train.At(DefaultTrainSize - 1)
	if !sameInstance(last, train.At(DefaultTrainSize-1)) ||
		!sameInstance(last, env.Generate(train.Seed, DefaultTrainSize-1)) {
		t.Error("At is not reproducible")
	}
	for i := range 50 {
		if sameInstance(train.At(i), test.At(i)) {
			t.Fatalf("train and test instance %d coincide", i)
		}
	}
	for _, i := range []int{-1, DefaultTestSize} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("At(%d) of a %d-instance set did not panic", i, DefaultTestSize)
				}
			}()
			test.At(i)
		}()
	}
}

func TestSplitString(t *testing.T) {
	for s, want := range map[Split]string{Train: "train", Validation: "validation", Test: "test", 7: "Split(7)"} {
		if got := s.String(); got != want {
			t.Errorf("%d: %q, want %q", int(s), got, want)
		}
	}
}
