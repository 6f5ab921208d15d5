package envs

import (
	"fmt"
	"math/rand/v2"
)

// Default dataset sizes, as in the paper's experiments.
const (
	DefaultTrainSize = 500000
	DefaultValSize   = 1000
	DefaultTestSize  = 1000
)

// Split names one of the three datasets of a run.
type Split int

// The splits of a run. Validation picks checkpoints; Test is scored only at the end.
const (
	Train Split = iota
	Validation
	Test
)

// String returns the split's name.
func (s Split) String() string {
	switch s {
	case Train:
		return "train"
	case Validation:
		return "validation"
	case Test:
		return "test"
	}
	return fmt.Sprintf("Split(%d)", int(s))
}

// SplitSeed returns the dataset seed of split s for the run seed: mix(mix(seed) + s), where
// mix is the SplitMix64 finaliser. mix is a bijection on uint64, so different splits of
// one run seed always get different dataset seeds, and the outer mix scatters them.
func SplitSeed(seed uint64, s Split) uint64 {
	return mix64(mix64(seed) + uint64(s))
}

// Dataset is the first Size instances that Env generates from Seed.
type Dataset struct {
	Env  Env
	Seed uint64
	Size int
}

// At returns instance i, the same on every call. It panics unless 0 <= i < Size.
func (d Dataset) At(i int) Instance {
	if i < 0 || i >= d.Size {
		panic(fmt.Sprintf("envs: dataset index %d out of range [0, %d)", i, d.Size))
	}
	return d.Env.Generate(d.Seed, i)
}

// InstanceRNG returns the generator of instance index of the dataset with seed, for a task's
// Generate: a PCG seeded by hashing (seed, index), so any instance is drawn without drawing the
// others.
func InstanceRNG(seed uint64, index int) *rand.Rand {
	if index < 0 {
		panic(fmt.Sprintf("envs: instance index %d is negative", index))
	}
	h := mix64(mix64(seed) + uint64(index))
	return rand.New(rand.NewPCG(h, mix64(h+0x9e3779b97f4a7c15)))
}

// mix64 is the SplitMix64 finaliser, a bijection on uint64 with good avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// UniformPoints draws n points uniform in the unit square, x before y: the planar tasks' data.
func UniformPoints(rng *rand.Rand, n int) []Point {
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{rng.Float64(), rng.Float64()}
	}
	return pts
}
