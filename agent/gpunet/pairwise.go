package gpunet

import (
	"fmt"

	"spg-tui/linalg/assign"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/linalg/sinkhorn"
)

// PairDims are a Pairwise's sizes and variant: batch B, size N, hidden width H, and the
// Sinkhorn iterations its saved buffers are sized for (at most).
type PairDims struct {
	B, N, H, MaxIters int
	// Successor makes it SPG+Successor: a tour's cities for states (pairs.Tour), the actor's
	// self-loops barred at SelfLoop; otherwise the states are MWM's two point sets.
	Successor bool
	SelfLoop  float32
	// TargetRate, above 0, gives the actor's update a slow target critic moved at that rate.
	TargetRate float64
	// HardActor reports the actor's loss at Hungarian(M') (of log M' with RoundLog), the
	// action it would execute: the bilinear critic's gradient is the same at any action, so
	// only the loss differs from the soft update (the straight-through estimator).
	HardActor, RoundLog bool
	// Sort: the states are sorting values (pairs.Sort's features, width 2); Factored makes the
	// actor SPG+Factored's (factoredActor), the critic staying the pair MLP.
	Sort, Factored bool
	// Tour: the states are a tour's cities, the actor SPG+Factored's (Factored) and the critic
	// the tour critic over the pair MLP of (city i, city k) (tourCritic).
	Tour bool
}

// The number of features of a pair: pairs.MatchingWidth (= pairs.TourWidth), pairs.SortWidth.
const (
	pairWidth = 6
	sortWidth = 2
)

// Pairwise is SPG+Pairwise on a device: the actor X_ij = MLP(f_ij), M = Sinkhorn(X / tau), and
// the bilinear critic Q(s, A) = <A, G(s)> with G the same MLP under its own weights (see nets'
// pairwise), with every buffer of a step allocated once; with PairDims.Successor it is
// SPG+Successor (nets' successor), with PairDims.Factored SPG+Factored on sorting, and with
// PairDims.Tour as well SPG+Factored on tsp with its tour critic.
type Pairwise struct {
	networks
	d PairDims

	x, feats, ones cuda.Buf // states, pair features (B N^2 x width), ones for bias sums
	width          int      // features of a pair
	values         cuda.Buf // the factored actor's items: sorting states' scaled values (B N), or cities less their centroid (B N x 2)
	xx             cuda.Buf // a tour's cities twice (B x 2N x 2): its pairs as MWM's of the cities with themselves
	fact           *factoredActor
	tour           *tourCritic
	actorMLP       mlp
	criticMLP      mlp
	m, skSaved     cuda.Buf // M and what Sinkhorn's backward reads
	p, soft        cuda.Buf // an update's actions
	q, dq          cuda.Buf // Q at P then M (2B), and its gradient
	dG, dM, dX     cuda.Buf
	qHost          []float32
	// the hard actor's rounding on the host
	mHost, pHost []float32
	perms        []int
}

// NewPairwise allocates a Pairwise for d with the parameters of actor and critic specs (p1, p2,
// p3 each), all zero until uploaded.
func NewPairwise(dev cuda.Device, d PairDims, actor, critic []Spec) (*Pairwise, error) {
	if d.B < 1 || d.N < 1 || d.H < 1 || d.MaxIters < 1 {
		return nil, fmt.Errorf("gpunet: Pairwise sizes %+v", d)
	}
	w := &Pairwise{d: d}
	if err := w.networks.init(dev, actor, critic); err != nil {
		return nil, err
	}
	if d.TargetRate > 0 {
		if err := w.withTarget(critic, d.TargetRate); err != nil {
			w.Close()
			return nil, err
		}
	}
	a := &w.mem
	b, n, h := d.B, d.N, d.H
	r := b * n * n
	w.width = pairWidth
	if d.Sort {
		w.width = sortWidth
	}
	w.x, w.feats, w.ones = a.get(b*w.stateLen()), a.get(r*w.width), newOnes(a, r)
	itemWidth := 1
	switch {
	case d.Sort:
		w.values = a.get(b * n)
	case d.Tour:
		itemWidth = 2
		w.values, w.xx, w.tour = a.get(b*n*2), a.get(b*4*n), newTourCritic(a, b, n)
	}
	if d.Factored {
		w.fact = newFactoredActor(a, b, n, h, itemWidth, w.values)
	}
	w.criticMLP = newMLP(a, r, h)
	if !d.Factored {
		w.actorMLP = newMLP(a, r, h)
	}
	w.m, w.skSaved = a.get(r), a.get(sinkhorn.SavedLen(b, n, d.MaxIters))
	w.p, w.soft, w.q, w.dq = a.get(r), a.get(r), a.get(2*b), a.get(2*b)
	w.dG, w.dM, w.dX = a.get(r), a.get(r), a.get(r)
	w.qHost = make([]float32, 2*b)
	if d.HardActor {
		w.mHost, w.pHost, w.perms = make([]float32, r), make([]float32, r), make([]int, b*n)
	}
	if a.err != nil {
		w.Close()
		return nil, fmt.Errorf("gpunet: allocating SPG+Pairwise's buffers (B %d, N %d): %w", b, n, a.err)
	}
	return w, nil
}

// stateLen is the number of floats of a state: 2N points (MWM), N points (a tour) or N values.
func (w *Pairwise) stateLen() int {
	switch {
	case w.d.Sort:
		return w.d.N
	case w.d.Successor, w.d.Tour:
		return 2 * w.d.N
	}
	return 4 * w.d.N
}

// features uploads states and computes their pair features.
func (w *Pairwise) features(states []float32) error {
	if len(states) != w.x.N {
		return fmt.Errorf("gpunet: %d state floats, want %d", len(states), w.x.N)
	}
	if err := w.dev.Upload(w.x, states); err != nil {
		return err
	}
	if w.d.Sort {
		if err := gpulayers.SortValues(w.dev, w.values, w.x, w.d.B, w.d.N); err != nil {
			return err
		}
		return gpulayers.PairFeaturesSort(w.dev, w.feats, w.values, w.d.B, w.d.N)
	}
	if w.d.Tour {
		return w.tourFeatures()
	}
	layout := gpulayers.TwoPointSets
	if w.d.Successor {
		layout = gpulayers.OnePointSet
	}
	return gpulayers.PairFeatures(w.dev, w.feats, w.x, w.d.B, w.d.N, layout)
}

// forward runs the pair MLP with parameters p over the features into l.out.
func (w *Pairwise) forward(p *Flat, l *mlp) error {
	return l.forward(w.dev, p, "p", w.feats, w.d.B*w.d.N*w.d.N, w.width, w.d.H)
}

// backward takes dOut (R) back through the pair MLP into g's gradients (overwritten).
func (w *Pairwise) backward(p, g *Flat, l *mlp, dOut cuda.Buf) error {
	return l.backward(w.dev, p, g, "p", w.feats, w.ones, dOut, w.d.B*w.d.N*w.d.N, w.width, w.d.H)
}

// actorForward computes M for the states whose features are current.
func (w *Pairwise) actorForward(tau float32, iters int) error {
	d := w.d
	if iters > d.MaxIters {
		return fmt.Errorf("gpunet: %d Sinkhorn iterations, buffers sized for %d", iters, d.MaxIters)
	}
	scores := w.actorMLP.out
	if w.fact != nil {
		if err := w.fact.forward(w.dev, w.actor); err != nil {
			return err
		}
		scores = w.fact.scores
	} else if err := w.forward(w.actor, &w.actorMLP); err != nil {
		return err
	}
	if d.Successor {
		if err := gpulayers.BarDiagonal(w.dev, scores, scores, d.B, d.N, d.SelfLoop); err != nil {
			return err
		}
	}
	return sinkhornForward(w.dev, w.m, scores, w.skSaved.At(0, sinkhorn.SavedLen(d.B, d.N, iters)), d.B, d.N, tau, iters)
}

func (w *Pairwise) Act(states, out []float32, tau float32, iters int) error {
	if len(out) != w.m.N {
		return fmt.Errorf("gpunet: Act: %d floats of M, want %d", len(out), w.m.N)
	}
	if err := w.features(states); err != nil {
		return err
	}
	if err := w.actorForward(tau, iters); err != nil {
		return err
	}
	return w.dev.Download(out, w.m)
}

func (w *Pairwise) CriticGrad(states, p, soft, r []float32, wt float64) (CriticOut, error) {
	var out CriticOut
	b, nn := w.d.B, w.d.N*w.d.N
	if len(r) != b || len(p) != b*nn || len(soft) != b*nn {
		return out, fmt.Errorf("gpunet: CriticGrad: %d rewards, %d and %d action floats for a batch of %d", len(r), len(p), len(soft), b)
	}
	dev := w.dev
	if err := w.features(states); err != nil {
		return out, err
	}
	if err := dev.Upload(w.p, p); err != nil {
		return out, err
	}
	if err := dev.Upload(w.soft, soft); err != nil {
		return out, err
	}
	if err := w.forward(w.critic, &w.criticMLP); err != nil {
		return out, err
	}
	g := w.criticMLP.out
	if err := w.criticQ(g, w.p, w.soft); err != nil {
		return out, err
	}
	q := w.qHost
	if err := dev.Download(q, w.q); err != nil {
		return out, err
	}
	dq := criticLoss(&out, q, r, wt)
	if err := dev.Upload(w.dq, dq); err != nil {
		return out, err
	}
	if w.tour != nil {
		if err := w.tour.gradG(dev, w.dG, w.dq, 2); err != nil {
			return out, err
		}
	} else {
		// dG = dQ(s,P) P + dQ(s,M) M, row by row.
		if err := gpulayers.ScaleRowsAdd(dev, w.dG, w.dq, w.p, b, nn, 0); err != nil {
			return out, err
		}
		if err := gpulayers.ScaleRowsAdd(dev, w.dG, w.dq.At(b, b), w.soft, b, nn, 1); err != nil {
			return out, err
		}
	}
	if err := w.backward(w.critic, w.critGrad, &w.criticMLP, w.dG); err != nil {
		return out, err
	}
	var err error
	out.GradNorm, err = w.norm(w.critGrad.buf)
	return out, err
}

func (w *Pairwise) ActorGrad(tau float32, iters int) (loss, norm float64, err error) {
	d := w.d
	b, n := d.B, d.N
	dev := w.dev
	if err := w.actorForward(tau, iters); err != nil {
		return 0, 0, err
	}
	// The critic's G on these states: the critic changed since CriticGrad computed it.
	if err := w.forward(w.criticInUse(), &w.criticMLP); err != nil {
		return 0, 0, err
	}
	g, act := w.criticMLP.out, w.m
	if d.HardActor {
		if act, err = w.rounded(); err != nil {
			return 0, 0, err
		}
	}
	if err := w.criticQ(g, act); err != nil {
		return 0, 0, err
	}
	q := w.qHost[:b]
	if err := dev.Download(q, w.q.At(0, b)); err != nil {
		return 0, 0, err
	}
	loss = negMean(q)
	// d(-mean <A, G>)/dA = -G / B, at M' or, straight through the rounding, at Hungarian(M').
	if w.tour != nil {
		err = w.tour.gradA(dev, w.dM, act, float32(-1/float64(b)))
	} else {
		err = launch1(dev, "scale_into", b*n*n, w.dM, g, float32(-1/float64(b)), b*n*n)
	}
	if err != nil {
		return 0, 0, err
	}
	if err := sinkhornBackward(dev, w.dX, w.dM, w.skSaved.At(0, sinkhorn.SavedLen(b, n, iters)), b, n, tau, iters); err != nil {
		return 0, 0, err
	}
	if d.Successor { // the barred self-loops are constants
		if err := gpulayers.BarDiagonal(dev, w.dX, w.dX, b, n, 0); err != nil {
			return 0, 0, err
		}
	}
	if w.fact != nil {
		err = w.fact.backward(dev, w.actor, w.actorGrad, w.dX)
	} else {
		err = w.backward(w.actor, w.actorGrad, &w.actorMLP, w.dX)
	}
	if err != nil {
		return 0, 0, err
	}
	norm, err = w.norm(w.actorGrad.buf)
	return loss, norm, err
}

// criticQ sets w.q's element i B on to Q at acts[i] from the critic's pair output g: <A, G>, or
// the tour critic's.
func (w *Pairwise) criticQ(g cuda.Buf, acts ...cuda.Buf) error {
	if w.tour != nil {
		return w.tour.q(w.dev, w.q, g, acts...)
	}
	b, nn := w.d.B, w.d.N*w.d.N
	for i, a := range acts {
		if err := gpulayers.BilinearQ(w.dev, w.q.At(i*b, b), a, g, b, nn); err != nil {
			return err
		}
	}
	return nil
}

// tourFeatures computes, for the uploaded tour states, the factored actor's items (the cities
// less their centroid) and the critic's pair features, MWM's of the cities with themselves.
func (w *Pairwise) tourFeatures() error {
	dev, b, n := w.dev, w.d.B, w.d.N
	if err := gpulayers.CentreItems(dev, w.values, w.x, b, n, 2); err != nil {
		return err
	}
	if err := gpulayers.CopyRows(dev, w.xx, 4*n, w.x, 2*n, b, 2*n); err != nil {
		return err
	}
	if err := gpulayers.CopyRows(dev, from(w.xx, 2*n), 4*n, w.x, 2*n, b, 2*n); err != nil {
		return err
	}
	return gpulayers.PairFeatures(dev, w.feats, w.xx, b, n, gpulayers.TwoPointSets)
}

// rounded returns Hungarian(M') (of log M' with RoundLog) as 0/1 matrices on the device,
// rounded on the host as the CPU's straight-through op does.
func (w *Pairwise) rounded() (cuda.Buf, error) {
	b, n := w.d.B, w.d.N
	if err := w.dev.Download(w.mHost, w.m); err != nil {
		return cuda.Buf{}, err
	}
	if err := assign.RoundBatchBy(w.mHost, b, n, w.perms, w.d.RoundLog); err != nil {
		return cuda.Buf{}, err
	}
	clear(w.pHost)
	for k := range b {
		for i, j := range w.perms[k*n : (k+1)*n] {
			w.pHost[k*n*n+i*n+j] = 1
		}
	}
	return w.p, w.dev.Upload(w.p, w.pHost)
}

var _ Net = (*Pairwise)(nil)
