package gpulayers

// SetGRUBlocks sets the grid the GRU sequence kernels aim at until the test's cleanup, so that
// a small batch runs several rows a block.
func SetGRUBlocks(t interface{ Cleanup(func()) }, n int) {
	old := gruBlocks
	gruBlocks = n
	t.Cleanup(func() { gruBlocks = old })
}

// GRURows is how many batch rows a block of the sequence kernels runs.
var GRURows = gruRows
