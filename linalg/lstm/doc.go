// Package lstm implements an LSTM layer over a whole batched sequence as a forward/backward pair
// of kernels over caller-provided buffers, with PyTorch's semantics and parameter layout.
//
// Gate order is i, f, g, o; wih is (4H x I), whh is (4H x H), bih and bhh have length 4H:
//
//	i  = sigma(Wii x + bii + Whi h + bhi)
//	f  = sigma(Wif x + bif + Whf h + bhf)
//	g  = tanh(Wig x + big + Whg h + bhg)
//	o  = sigma(Wio x + bio + Who h + bho)
//	c' = f * c + i * g
//	h' = o * tanh(c')
//
// All matrices are dense row-major slices: x is (B, T, I), the output is (B, T, H) holding the
// state h after each step, the initial states h0 and c0 are (B, H) or nil for zeros, and cT, when
// not nil, receives the final cell state (B, H) (the final h is the output's last step). The
// pointer networks chain two calls: the decoder starts from the encoder's final (h, c).
//
// GEMMs go through spg-tui/linalg/backend (OpenBLAS when built with -tags openblas); the gate
// arithmetic is plain Go in the element type. float32 is for training, float64 for gradient
// checks.
package lstm
