package fastmath

import "fmt"

// GRUGates is the elementwise part of one GRU step for one batch row, PyTorch's equations with
// gate order r, z, n and h = len(hp) hidden units:
//
//	r = sigma(gi_r + bi_r + gh_r + bh_r), z likewise, hn = gh_n + bh_n,
//	n = tanh(gi_n + bi_n + r hn), hNew = n + z (hp - n) = (1 - z) n + z hp,
//
// given the input and hidden projections gi = Wi x and gh = Wh hp (3h each, without biases),
// the biases bi and bh (3h) and the previous state hp. It overwrites gi with [r | z | n] and
// writes hn (h), which the backward pass needs, and hNew (h). The sums are taken in the order
// written; the vector kernel fuses r hn + bi_n into one rounding.
func GRUGates(gi, gh, bi, bh, hn, hp, hNew []float32) {
	h := len(hp)
	if len(gi) != 3*h || len(gh) != 3*h || len(bi) != 3*h || len(bh) != 3*h || len(hn) != h || len(hNew) != h {
		panic(fmt.Sprintf("fastmath: GRUGates: lengths gi %d, gh %d, bi %d, bh %d, hn %d, hp %d, hNew %d: want 3h, 3h, 3h, 3h, h, h, h",
			len(gi), len(gh), len(bi), len(bh), len(hn), h, len(hNew)))
	}
	for j := gruGatesVec(gi, gh, bi, bh, hn, hp, hNew); j < h; j++ {
		r := Sigmoid32(gi[j] + (bi[j] + gh[j] + bh[j]))
		z := Sigmoid32(gi[h+j] + (bi[h+j] + gh[h+j] + bh[h+j]))
		hnj := gh[2*h+j] + bh[2*h+j]
		n := Tanh32(gi[2*h+j] + (bi[2*h+j] + r*hnj))
		gi[j], gi[h+j], gi[2*h+j], hn[j] = r, z, n, hnj
		hNew[j] = n + z*(hp[j]-n)
	}
}

// GRUGatesBackward is GRUGates' backward pass for one row of h = len(hp) hidden units. gates
// ([r | z | n], 3h), hn and hp are what GRUGates had and wrote; dout is the gradient with
// respect to hNew, and carry holds on entry the gradient with respect to hNew from later steps.
// It writes the pre-activation gradients into g (4h) as [n input part | r | z | n hidden
// part (= dn r)] and leaves in carry dh z, the direct part of the gradient with respect to hp
// (dh = dout + carry).
func GRUGatesBackward(g, carry, dout, gates, hn, hp []float32) {
	h := len(hp)
	if len(g) != 4*h || len(carry) != h || len(dout) != h || len(gates) != 3*h || len(hn) != h {
		panic(fmt.Sprintf("fastmath: GRUGatesBackward: lengths g %d, carry %d, dout %d, gates %d, hn %d, hp %d: want 4h, h, h, 3h, h, h",
			len(g), len(carry), len(dout), len(gates), len(hn), h))
	}
	for j := gruGatesBackwardVec(g, carry, dout, gates, hn, hp); j < h; j++ {
		dh := dout[j] + carry[j]
		r, z, n := gates[j], gates[h+j], gates[2*h+j]
		dan := dh * (1 - z) * (1 - n*n)
		g[j] = dan
		g[3*h+j] = dan * r
		g[h+j] = dan * hn[j] * r * (1 - r)
		g[2*h+j] = dh * (hp[j] - n) * z * (1 - z)
		carry[j] = dh * z
	}
}
