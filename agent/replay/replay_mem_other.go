//go:build !unix

package replay

// offHeap returns size zeroed bytes; without mmap they live on the Go heap.
func offHeap[T any](_ *T, size int) []byte { return make([]byte, size) }
