package envs

import (
	"fmt"
	"testing"

	"spg-tui/envs/internal/envstest"
)

// BenchmarkObjective scores one permutation of every task at n = 50.
func BenchmarkObjective(b *testing.B) {
	for _, task := range Tasks {
		b.Run(fmt.Sprintf("%s-50", task), func(b *testing.B) {
			env, _ := New(task, 50)
			inst := env.Generate(1, 0)
			p := envstest.RNG(1).Perm(50)
			b.ReportAllocs()
			for b.Loop() {
				env.Objective(inst, p)
			}
		})
	}
}
