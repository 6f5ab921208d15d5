package layers

import (
	"fmt"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/gru"
)

// The GRU runs as linalg/gru does, with its buffers' layouts: x (B, T, I), out (B, T, H), h0
// (B, H), PyTorch's weights wih (3H x I), whh (3H x H), bih and bhh (3H), and saved
// (gru.SavedLen) with one row of [r | z | n | hn | hprev] per (b, t). The products are the
// device's; each time step adds one product (B x H by H x 3H) and one gate kernel, so a
// sequence of T steps costs about 2T launches each way.

// GRUWorkLen returns the scratch GRUForward and GRUBackward need: 3BH forward (the step's
// hidden projections), 4BTH + BH backward (the gate gradients of every step and the state
// gradient carried between steps).
func GRUWorkLen(d gru.Dims) int { return max(3*d.B*d.H, 4*d.B*d.T*d.H+d.B*d.H) }

// checkGRU returns an error for non-positive dimensions.
func checkGRU(op string, d gru.Dims) error {
	if d.B <= 0 || d.T <= 0 || d.I <= 0 || d.H <= 0 {
		return fmt.Errorf("%s: dimensions must be positive, got %+v", op, d)
	}
	return nil
}

// timeAt returns the time index of step s of t, as gru does.
func timeAt(s, t int, reverse bool) int {
	if reverse {
		return t - 1 - s
	}
	return s
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
		"whh", whh, 3*h*h, "bih", bih, 3*h, "bhh", bhh, 3*h, "saved", saved, gru.SavedLen(d), "work", work, 3*b*h)
	if err != nil {
		return err
	}
	out, x, h0, wih, whh, bih, bhh, saved, gh := bs[0], bs[1], bs[2], bs[3], bs[4], bs[5], bs[6], bs[7], bs[8]
	const sc = 5
	// Input projections of all B*T steps at once into the saved rows' first 3H.
	if err := dev.Sgemm(false, true, b*t, 3*h, in, 1, x, in, wih, in, 0, saved, sc*h); err != nil {
		return err
	}
	t0 := timeAt(0, t, reverse)
	if err := setStates(dev, saved, h0, b, t, h, t0); err != nil {
		return err
	}
	for s := range t {
		ti := timeAt(s, t, reverse)
		// The step's starting states are the (B x H) rows of saved's last column, T*5H apart;
		// from a zero state the projections are zeros, as on the CPU (whatever whh holds).
		if s == 0 && h0.N == 0 {
			err = Fill(dev, gh, 0)
		} else {
			err = dev.Sgemm(false, true, b, 3*h, h, 1, from(saved, ti*sc*h+4*h), t*sc*h, whh, h, 0, gh, 3*h)
		}
		if err != nil {
			return err
		}
		next := -1
		if s+1 < t {
			next = timeAt(s+1, t, reverse)
		}
		if err := dev.Launch("gru_gates", grid1(b*h, elementBlock), cuda.D1(elementBlock),
			saved, gh, bih, bhh, out, i32(b), i32(t), i32(h), i32(ti), i32(next)); err != nil {
			return err
		}
	}
	return nil
}

// setStates writes h0 (or zeros where h0 is empty) as the starting state of time t0 into
// every batch row's saved row, 5H wide with the state in its last H.
func setStates(dev cuda.Device, saved, h0 cuda.Buf, b, t, h, t0 int) error {
	dst := from(saved, t0*5*h+4*h)
	if h0.N == 0 {
		return FillRows(dev, dst, t*5*h, b, h, 0)
	}
	return CopyRows(dev, dst, t*5*h, h0, h, b, h)
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
	g, carry := work.At(0, b*t*ld), work.At(b*t*ld, b*h)
	if err := Fill(dev, carry, 0); err != nil {
		return err
	}
	for s := t - 1; s >= 0; s-- {
		ti := timeAt(s, t, reverse)
		if err := dev.Launch("gru_gates_backward", grid1(b*h, elementBlock), cuda.D1(elementBlock),
			g, carry, dout, saved, i32(b), i32(t), i32(h), i32(ti)); err != nil {
			return err
		}
		if s > 0 || dh0.N > 0 {
			// carry += dgh Whh, dgh being the step's hidden-projection gradients (B x 3H, T*4H apart).
			if err := dev.Sgemm(false, false, b, h, 3*h, 1, from(g, ti*ld+h), t*ld, whh, h, 1, carry, h); err != nil {
				return err
			}
		}
	}
	if dh0.N > 0 {
		if err := Copy(dev, dh0, carry); err != nil {
			return err
		}
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
