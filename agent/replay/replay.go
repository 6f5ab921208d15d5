package replay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"unsafe"

	"spg-tui/linalg/parallel"
	"spg-tui/run"
)

// Buffer is the bounded replay buffer of Algorithm 1: a ring of transitions (s, M, P, r) that
// overwrites the oldest once full and is sampled uniformly.
//
// Storage per transition, for size n:
//   - s as the instance's index in the training set (uint32, 4 bytes). Instances are
//     reproducible from (dataset seed, index) in O(1), so the float32 features (4·StateLen
//     bytes: 320 at MWM-20) need not be kept; regenerating a minibatch's 128 instances costs
//     well under 1% of a training step, and the buffer holds up to a third more transitions in
//     the same memory budget.
//   - M as uint16 fixed point, round(m·65535) with m clamped to [0, 1] (2n² bytes). The
//     rounding error is at most 1/131070 ≈ 7.6e-6 per entry, so a row or column sum moves by at
//     most n·7.6e-6 (1.5e-4 at n = 20). Measured on Sinkhorn outputs at n = 20
//     (TestReplayQuantisationError): 7.6e-6 per entry, row sums within 6e-5. Against float32
//     this halves the buffer's dominant cost.
//   - P as its row-to-column permutation, one byte per row (n bytes; hence n <= 255).
//   - r as float32 (4 bytes).
type Buffer struct {
	n, capacity int
	size, next  int

	index  []uint32
	m      []uint16
	p      []uint8
	reward []float32
}

// TransitionBytes is the memory one stored transition of size n takes.
func TransitionBytes(n int) int64 {
	return 4 + 2*int64(n)*int64(n) + int64(n) + 4
}

// Capacity is the capacity a run of cfg gets: Buffer transitions, or fewer if they do not
// fit in BufferMem. It fails when not even one batch fits.
func Capacity(cfg run.Config) (int, error) {
	fit := cfg.BufferMem / TransitionBytes(cfg.N)
	capacity := int(min(int64(cfg.Buffer), fit))
	if capacity < cfg.Batch {
		return 0, fmt.Errorf("buffer-mem %d: holds %d transitions of n = %d (%d bytes each), fewer than one batch (%d)",
			cfg.BufferMem, fit, cfg.N, TransitionBytes(cfg.N), cfg.Batch)
	}
	return capacity, nil
}

// New returns an empty buffer for size-n transitions holding up to capacity of them.
// The memory is reserved up front; the OS backs it only as transitions are written.
func New(n, capacity int) *Buffer {
	if n < 1 || n > run.MaxN || capacity < 1 {
		panic(fmt.Sprintf("replay: New(n = %d, capacity = %d) out of range", n, capacity))
	}
	r := &Buffer{n: n, capacity: capacity}
	// One mapping, 4-byte arrays first so that every array is aligned (the mapping is
	// page-aligned). The slices must not outlive r: the mapping is released with it.
	nn := capacity * n * n
	mem := offHeap(r, capacity*(4+4)+2*nn+capacity*n)
	base := unsafe.Pointer(unsafe.SliceData(mem))
	r.index = unsafe.Slice((*uint32)(base), capacity)
	r.reward = unsafe.Slice((*float32)(unsafe.Add(base, 4*capacity)), capacity)
	r.m = unsafe.Slice((*uint16)(unsafe.Add(base, 8*capacity)), nn)
	r.p = unsafe.Slice((*uint8)(unsafe.Add(base, 8*capacity+2*nn)), capacity*n)
	return r
}

// Len is the number of stored transitions.
func (r *Buffer) Len() int { return r.size }

// Cap is the most transitions the buffer holds.
func (r *Buffer) Cap() int { return r.capacity }

// AddBatch stores len(index) transitions in order, each overwriting the oldest when full: for
// transition i the training-set index of the state, the soft action m[i n²:] (n x n,
// row-major), the hard action as rowToCol[i n:] (len n) and the reward. Their slots follow from
// the order alone, so they are written over the cores; those a later transition of the same
// batch would overwrite are skipped.
func (r *Buffer) AddBatch(index []int, m []float32, rowToCol []int, reward []float64) {
	n, b := r.n, len(index)
	skip, first := max(0, b-r.capacity), r.next
	parallel.For(b-skip, func(_, lo, hi int) {
		for i := skip + lo; i < skip+hi; i++ {
			k := (first + i) % r.capacity
			r.index[k] = uint32(index[i])
			quantise(r.m[k*n*n:(k+1)*n*n], m[i*n*n:(i+1)*n*n])
			for j, c := range rowToCol[i*n : (i+1)*n] {
				r.p[k*n+j] = uint8(c)
			}
			r.reward[k] = float32(reward[i])
		}
	})
	r.next = (first + b) % r.capacity
	r.size = min(r.size+b, r.capacity)
}

// Sample fills slots with len(slots) draws from rng, each uniform over all stored transitions
// (with replacement; the newest is as likely as any other). It panics on an empty buffer.
func (r *Buffer) Sample(rng *rand.Rand, slots []int) {
	if r.size == 0 {
		panic("agent: sampling an empty replay buffer")
	}
	for i := range slots {
		slots[i] = rng.IntN(r.size)
	}
}

// Get reads the transition in slot: it writes the dequantised M and the 0/1 matrix of P into
// m and p (n x n each) and returns the state's training index and the reward.
func (r *Buffer) Get(slot int, m, p []float32) (index int, reward float32) {
	n := r.n
	for i, q := range r.m[slot*n*n : (slot+1)*n*n] {
		m[i] = float32(q) / 65535
	}
	p = p[:n*n]
	clear(p)
	for i, c := range r.p[slot*n : (slot+1)*n] {
		p[i*n+int(c)] = 1
	}
	return int(r.index[slot]), r.reward[slot]
}

// quantise writes m as uint16 fixed point, clamping to [0, 1] (NaN becomes 0; the trainer
// stops on non-finite M before storing it).
func quantise(dst []uint16, m []float32) {
	for i, v := range m {
		switch {
		case v >= 1:
			dst[i] = 65535
		case v > 0:
			dst[i] = uint16(v*65535 + 0.5)
		default:
			dst[i] = 0
		}
	}
}

// replayMagic starts an encoded buffer.
const replayMagic = "SPGRPLY1"

// EncodedLen is the number of bytes WriteTo writes.
func (r *Buffer) EncodedLen() int64 {
	return int64(len(replayMagic)) + 4*8 + int64(r.size)*TransitionBytes(r.n)
}

// WriteTo streams the buffer to w (its stored transitions and ring position, not the unused
// capacity) without building a copy in memory.
func (r *Buffer) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := &countWriter{w: bw}
	n, size := r.n, r.size
	buf := []byte(replayMagic)
	for _, v := range []int{n, r.capacity, size, r.next} {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	cw.Write(buf)
	// Fixed-size chunks keep the encoding buffer small however large the buffer is.
	const chunk = 1 << 14
	for lo := 0; lo < size; lo += chunk {
		hi := min(lo+chunk, size)
		buf = buf[:0]
		for _, v := range r.index[lo:hi] {
			buf = binary.LittleEndian.AppendUint32(buf, v)
		}
		for _, v := range r.reward[lo:hi] {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
		buf = append(buf, r.p[lo*n:hi*n]...)
		cw.Write(buf)
		for s := lo; s < hi; s++ {
			buf = buf[:0]
			for _, v := range r.m[s*n*n : (s+1)*n*n] {
				buf = binary.LittleEndian.AppendUint16(buf, v)
			}
			cw.Write(buf)
		}
	}
	runtime.KeepAlive(r) // the mapped arrays above are released with r
	if cw.err == nil {
		cw.err = bw.Flush()
	}
	return cw.n, cw.err
}

// ReadFrom restores a buffer written by WriteTo into r, which must have the same size n and
// capacity.
func (r *Buffer) ReadFrom(rd io.Reader) (int64, error) {
	cr := &countReader{r: bufio.NewReaderSize(rd, 1<<16)}
	head := make([]byte, len(replayMagic)+4*8)
	if _, err := io.ReadFull(cr, head); err != nil {
		return cr.n, fmt.Errorf("replay buffer: %w", err)
	}
	if string(head[:len(replayMagic)]) != replayMagic {
		return cr.n, errors.New("replay buffer: bad magic")
	}
	var v [4]int
	for i := range v {
		u := binary.LittleEndian.Uint64(head[len(replayMagic)+8*i:])
		if u > math.MaxInt32 {
			return cr.n, errors.New("replay buffer: corrupt header")
		}
		v[i] = int(u)
	}
	n, capacity, size, next := v[0], v[1], v[2], v[3]
	if n != r.n || capacity != r.capacity {
		return cr.n, fmt.Errorf("replay buffer: saved for n = %d, capacity %d; want n = %d, capacity %d", n, capacity, r.n, r.capacity)
	}
	if size > capacity || next >= capacity || (size < capacity && next != size) {
		return cr.n, errors.New("replay buffer: corrupt ring position")
	}
	const chunk = 1 << 14
	buf := make([]byte, 0, chunk*(8+n))
	mb := make([]byte, 2*n*n)
	for lo := 0; lo < size; lo += chunk {
		hi := min(lo+chunk, size)
		k := hi - lo
		buf = buf[:k*(8+n)]
		if _, err := io.ReadFull(cr, buf); err != nil {
			return cr.n, fmt.Errorf("replay buffer: %w", err)
		}
		for i := range k {
			r.index[lo+i] = binary.LittleEndian.Uint32(buf[4*i:])
			r.reward[lo+i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*(k+i):]))
		}
		copy(r.p[lo*n:hi*n], buf[8*k:])
		for s := lo; s < hi; s++ {
			if _, err := io.ReadFull(cr, mb); err != nil {
				return cr.n, fmt.Errorf("replay buffer: %w", err)
			}
			for i := range n * n {
				r.m[s*n*n+i] = binary.LittleEndian.Uint16(mb[2*i:])
			}
		}
	}
	for _, c := range r.p[:size*n] {
		if int(c) >= n {
			return cr.n, errors.New("replay buffer: corrupt permutation")
		}
	}
	r.size, r.next = size, next
	return cr.n, nil
}

// countWriter counts bytes and keeps the first error, so a long run of writes is checked once.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	k, err := c.w.Write(p)
	c.n += int64(k)
	c.err = err
	return k, err
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}
