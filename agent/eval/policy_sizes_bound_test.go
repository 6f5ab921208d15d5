package eval

import (
	"testing"

	"spg-tui/run"
)

// Above run.MaxN the graph batch of a policy built at another size, and the chunk of instances
// acted on at a time, fall as 1/n^2: their n x n matrices take no more than at MaxN at any
// decoding size (at n = 1,000 all 32 took 9 GB for spg-successor). Up to MaxN they are as before.
func TestDecodingBatchesAreBoundedByN(t *testing.T) {
	for _, n := range []int{2, 20, run.MaxN} {
		if got := SizedBatchAt(n); got != sizedBatch {
			t.Errorf("SizedBatchAt(%d) = %d, want %d", n, got, sizedBatch)
		}
		if got := chunkAt(1000, n); got != evalChunk {
			t.Errorf("chunkAt(1000, %d) = %d, want %d", n, got, evalChunk)
		}
	}
	for _, n := range []int{run.MaxN + 1, 500, 1000, 4096} {
		b, c := SizedBatchAt(n), chunkAt(1000, n)
		if b < 1 || b > 1 && b*n*n > sizedBatch*run.MaxN*run.MaxN || c < 1 || c > 1 && c*n*n > evalChunk*run.MaxN*run.MaxN {
			t.Errorf("n = %d: graph batch %d, chunk %d", n, b, c)
		}
	}
	if got := chunkAt(3, 4096); got != 1 {
		t.Errorf("chunkAt(3, 4096) = %d, want 1", got)
	}
	if got := chunkAt(3, 10); got != 3 {
		t.Errorf("chunkAt(3, 10) = %d, want 3", got)
	}
}
