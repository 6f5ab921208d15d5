//go:build unix

package replay

import (
	"fmt"
	"runtime"
	"syscall"
)

// offHeap returns size zeroed bytes mapped outside the Go heap, unmapped by a cleanup once owner
// is unreachable. The replay buffer lives there because the garbage collector paces itself on
// the live heap: a multi-GiB buffer on the heap would let each cycle's garbage grow as large as
// the buffer before a collection (RSS twice the buffer), and every cycle would have to scan it.
// Untouched pages cost no memory, so a fresh buffer is cheap until it fills.
func offHeap[T any](owner *T, size int) []byte {
	if size == 0 {
		return nil
	}
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		panic(fmt.Sprintf("replay: mapping %d bytes for the replay buffer: %v", size, err))
	}
	runtime.AddCleanup(owner, func(mem []byte) { _ = syscall.Munmap(mem) }, mem)
	return mem
}
