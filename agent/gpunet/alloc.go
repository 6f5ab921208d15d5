package gpunet

import "spg-tui/linalg/cuda"

// allocator hands out device buffers and remembers them, so that a network's buffers are
// allocated once, up front, and freed together; the first failure is kept and every later
// request returns an empty buffer.
type allocator struct {
	dev  cuda.Device
	bufs []cuda.Buf
	err  error
}

func (a *allocator) get(n int) cuda.Buf {
	if a.err != nil {
		return cuda.Buf{}
	}
	b, err := a.dev.Alloc(max(n, 1))
	if err != nil {
		a.err = err
		return cuda.Buf{}
	}
	a.bufs = append(a.bufs, b)
	return b.At(0, n)
}

// free releases every buffer.
func (a *allocator) free() {
	for _, b := range a.bufs {
		a.dev.Free(b)
	}
	a.bufs = nil
}
