package gpulayers

import (
	"fmt"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/gru"
)

// The GRU runs as linalg/gru does, with its buffers' layouts: x (B, T, I), out (B, T, H), h0
// (B, H), PyTorch's weights wih (3H x I), whh (3H x H), bih and bhh (3H), and saved
// (gru.SavedLen) with one row of [r | z | n | hn | hprev] per (b, t). The recurrence over time
// is one kernel each way (kernels' gru_sequence and gru_sequence_backward), so the launches do
// not grow with T: forward a transpose of whh, the input projections and the sequence kernel;
// backward the sequence kernel and the weight, bias and input gradients' products and sums.

// MaxGRUHidden is the largest H the sequence kernels take: a block's states live in shared
// memory (the kernels' GRU_STATE floats, at least one row).
const MaxGRUHidden = 4096

// The sequence kernels' blocks: at most gruMaxRows batch rows each (GRU_ROWS), their states
// at most MaxGRUHidden floats, and at most gruBlock threads, each owning units of every row.
const (
	gruMaxRows = 8
	gruBlock   = 256
)

// gruBlocks is the grid the sequence kernels aim at: about one block per multiprocessor of a
// large GPU (132 on an H100), more rows a block rather than more blocks beyond it, so that each
// weight a block loads serves more rows. A variable for the tests, which lower it to run
// several rows a block on small batches.
var gruBlocks = 128

// gruRows returns how many batch rows one block of the sequence kernels runs for a batch of b.
func gruRows(b, h int) int {
	return max(1, min(gruMaxRows, MaxGRUHidden/h, (b+gruBlocks-1)/gruBlocks))
}

// gruLaunch returns the sequence kernels' grid and block for rows a block.
func gruLaunch(b, h, rows int) (cuda.Dim3, cuda.Dim3) {
	return cuda.D1((b + rows - 1) / rows), cuda.D1(min(gruBlock, (h+31)/32*32))
}

// GRUWorkLen returns the scratch GRUForward and GRUBackward need: Whh transposed (3H^2)
// forward, the gate gradients of every step (4BTH) backward.
func GRUWorkLen(d gru.Dims) int { return max(3*d.H*d.H, 4*d.B*d.T*d.H) }

// checkGRU returns an error for non-positive dimensions and a hidden width the kernels do not
// take.
func checkGRU(op string, d gru.Dims) error {
	if d.B <= 0 || d.T <= 0 || d.I <= 0 || d.H <= 0 {
		return fmt.Errorf("%s: dimensions must be positive, got %+v", op, d)
	}
	if d.H > MaxGRUHidden {
		return fmt.Errorf("%s: hidden width %d, at most %d", op, d.H, MaxGRUHidden)
	}
	return nil
}

// boolArg is a kernel's 0/1 argument.
func boolArg(on bool) int32 {
	if on {
		return 1
	}
	return 0
}

// GRUForward runs the GRU over the sequence as gru.Forward: out receives the state after each
// step, saved what GRUBackward needs. h0 of length 0 starts from zeros. work is GRUWorkLen.
func GRUForward(dev cuda.Device, d gru.Dims, out, x, h0, wih, whh, bih, bhh, saved, work cuda.Buf, reverse bool) error {
	const op = "GRUForward"
	if err := checkGRU(op, d); err != nil {
		return err
	}
	b, t, in, h := d.B, d.T, d.I, d.H
	bs, err := bufs(op, "out", out, b*t*h, "x", x, b*t*in, "h0", h0, -b*h, "wih", wih, 3*h*in,
		"whh", whh, 3*h*h, "bih", bih, 3*h, "bhh", bhh, 3*h, "saved", saved, gru.SavedLen(d), "work", work, 3*h*h)
	if err != nil {
		return err
	}
	out, x, h0, wih, whh, bih, bhh, saved, whhT := bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7], bs[8]
	if err := dev.Launch("transpose", grid1(3*h*h, elementBlock), cuda.D1(elementBlock), whhT, whh, i32(3*h), i32(h)); err != nil {
		return err
	}
	// Input projections of all B*T steps at once into the saved rows' first 3H.
	if err := dev.Sgemm(false, true, b*t, 3*h, in, 1, x, in, wih, in, 0, saved, 5*h); err != nil {
		return err
	}
	fromH0 := h0.N > 0
	if !fromH0 {
		h0 = saved // not read: the kernel needs a pointer
	}
	rows := gruRows(b, h)
	grid, block := gruLaunch(b, h, rows)
	return dev.Launch("gru_sequence", grid, block, saved, out, h0, whhT, bih, bhh,
		i32(b), i32(t), i32(h), boolArg(reverse), boolArg(fromH0), i32(rows))
}

// GRUBackward computes the gradients through GRUForward given dout (B, T, H), as
// gru.Backward: it overwrites dx, dh0, dwih, dwhh, dbih and dbhh, each of which may have
// length 0 when it is not wanted (its work is then skipped). x, wih and whh are GRUForward's
// inputs and saved what it stored; work is GRUWorkLen.
func GRUBackward(dev cuda.Device, d gru.Dims, dx, dh0, dwih, dwhh, dbih, dbhh, dout, x, wih, whh, saved, work cuda.Buf, reverse bool) error {
	const op = "GRUBackward"
	if err := checkGRU(op, d); err != nil {
		return err
	}
	b, t, in, h := d.B, d.T, d.I, d.H
	bs, err := bufs(op, "dx", dx, -b*t*in, "dh0", dh0, -b*h, "dwih", dwih, -3*h*in, "dwhh", dwhh, -3*h*h,
		"dbih", dbih, -3*h, "dbhh", dbhh, -3*h, "dout", dout, b*t*h, "x", x, b*t*in, "wih", wih, 3*h*in,
		"whh", whh, 3*h*h, "saved", saved, gru.SavedLen(d), "work", work, GRUWorkLen(d))
	if err != nil {
		return err
	}
	dx, dh0, dwih, dwhh, dbih, dbhh, dout, x, wih, whh, saved, work = bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7], bs[8], bs[9], bs[10], bs[11]
	const sc, gc = 5, 4
	ld := gc * h
	g := work.At(0, b*t*ld)
	toH0 := dh0.N > 0
	if !toH0 {
		dh0 = g // not written: the kernel needs a pointer
	}
	rows := gruRows(b, h)
	grid, block := gruLaunch(b, h, rows)
	if err := dev.Launch("gru_sequence_backward", grid, block, g, dh0, dout, saved, whh,
		i32(b), i32(t), i32(h), boolArg(reverse), boolArg(toH0), i32(rows)); err != nil {
		return err
	}
	bt := b * t
	if dx.N > 0 {
		// The input-projection gradients are columns [r z] = H..3H then [n] = 0..H of g.
		if err := dev.Sgemm(false, false, bt, in, 2*h, 1, from(g, h), ld, wih, in, 0, dx, in); err != nil {
			return err
		}
		if err := dev.Sgemm(false, false, bt, in, h, 1, g, ld, from(wih, 2*h*in), in, 1, dx, in); err != nil {
			return err
		}
	}
	if dwhh.N > 0 {
		// dWhh = dgh^T Hprev over all B*T rows; Hprev is saved's last column.
		if err := dev.Sgemm(true, false, 3*h, h, bt, 1, from(g, h), ld, from(saved, 4*h), sc*h, 0, dwhh, h); err != nil {
			return err
		}
	}
	if dwih.N > 0 {
		if err := dev.Sgemm(true, false, 2*h, in, bt, 1, from(g, h), ld, x, in, 0, dwih, in); err != nil {
			return err
		}
		if err := dev.Sgemm(true, false, h, in, bt, 1, g, ld, x, in, 0, from(dwih, 2*h*in), in); err != nil {
			return err
		}
	}
	// Columns H..4H of g are dbhh's terms; the r and z biases enter input and hidden sums alike.
	if dbhh.N > 0 {
		if err := ColSums(dev, dbhh, from(g, h), bt, 3*h, ld); err != nil {
			return err
		}
	}
	if dbih.N > 0 {
		if err := ColSums(dev, dbih.At(0, 2*h), from(g, h), bt, 2*h, ld); err != nil {
			return err
		}
		if err := ColSums(dev, from(dbih, 2*h), g, bt, h, ld); err != nil {
			return err
		}
	}
	return nil
}
