package learn

import (
	"errors"
	"fmt"

	"spg-tui/agent/gpunet"
	"spg-tui/agent/nets"
	"spg-tui/linalg/batchnorm"
	"spg-tui/linalg/cuda"
	"spg-tui/run"
)

// deviceLearnerNamed is the GPU learner of the model named model, and false for a model without
// one: a GPU learner is one case here.
func deviceLearnerNamed(model string) (deviceLearner, bool) {
	switch model {
	case run.ModelMatching:
		return deviceLearner{matchingKernels, newGPUMatching}, true
	case run.ModelPairwise:
		return deviceLearner{pairLikeKernels, newGPUPairwise}, true
	case run.ModelSuccessor:
		return deviceLearner{successorKernels, newGPUSuccessor}, true
	case run.ModelFactored:
		return deviceLearner{factoredKernels, newGPUFactored}, true
	case run.ModelGM, run.ModelGMLogStep, run.ModelGMSpectral:
		return deviceLearner{gmKernels, newGPUGM}, true
	}
	return deviceLearner{}, false
}

// gpuLearner is an SPG learner on a GPU: the step (acting, both updates, Adam) runs on the
// device through a gpunet.Net; a CPU learner of the same configuration is the parameters'
// home between steps, for checkpoints (the same bytes as a CPU run's), Q in inference mode and
// the sampled decode, and keeps the critic's running batch-norm statistics, which change only
// by the batch statistics each update reads back.
type gpuLearner struct {
	cfg  run.Spec
	dev  cuda.Device
	net  gpunet.Net
	host *spgLearner
	// hostStale: the device's parameters are newer than the host's.
	hostStale bool
	chunk     []float32 // a padded chunk of states for Act
	mChunk    []float32
	released  bool
}

// release frees the network's device buffers (releaser); the learner is not used after.
func (l *gpuLearner) release() {
	if !l.released {
		l.released = true
		l.net.Close()
	}
}

// Released reports whether Release freed the learner's device buffers, for the trainer's
// tests that a run's end does.
func (l *gpuLearner) Released() bool { return l.released }

// matchingKernels: SPG+Matching's device step has no target critic, hard actor update or
// other critic than the paper's.
func matchingKernels(cfg run.Spec) bool {
	return cfg.TargetCritic == 0 && (cfg.ActorAt == "" || cfg.ActorAt == run.ActorAtSoft) && (cfg.Critic == "" || cfg.Critic == run.CriticPaper)
}

// newGPUMatching builds SPG+Matching's learner of cfg on dev.
func newGPUMatching(cfg run.Spec, dev cuda.Device) (Learner, error) {
	l, err := newGPULearner(cfg, dev, func(host *spgLearner) (gpunet.Net, error) {
		n := cfg.N
		d := gpunet.Dims{B: cfg.Batch, N: n, K: cfg.Facts.StateLen(n) / (2 * n), H: cfg.Hidden, MaxIters: max(cfg.SinkhornIters, maxLiveIters)}
		return gpunet.NewMatching(dev, d, specsOf(host.actor), specsOf(host.critic))
	})
	if err != nil {
		return nil, err // not a nil *gpuLearner inside a non-nil Learner
	}
	return l, nil
}

// pairLikeKernels: the pair-MLP critic's device step is for point sets (MWM) and values (sort),
// without a target critic, the hard actor update or the exact critic.
func pairLikeKernels(cfg run.Spec) bool {
	f := cfg.Facts
	return (f.PointSets() || f.Values()) && cfg.TargetCritic == 0 &&
		(cfg.ActorAt == "" || cfg.ActorAt == run.ActorAtSoft) && cfg.Critic != run.CriticExact
}

// newGPUPairwise builds SPG+Pairwise's learner of cfg on dev (MWM and sort).
func newGPUPairwise(cfg run.Spec, dev cuda.Device) (Learner, error) {
	return newGPUPairLike(cfg, dev, false)
}

// factoredKernels: SPG+Factored's device step is sort's (best's sorting model) and tsp's with
// its tour critic and slow target critic, but not the hard actor update or the exact critic.
func factoredKernels(cfg run.Spec) bool {
	if cfg.Facts.PointTour() {
		return (cfg.ActorAt == "" || cfg.ActorAt == run.ActorAtSoft) && cfg.Critic != run.CriticExact
	}
	return cfg.Facts.Values() && pairLikeKernels(cfg)
}

// newGPUFactored builds SPG+Factored's learner of cfg on dev: sort's, or tsp's with the tour
// critic.
func newGPUFactored(cfg run.Spec, dev cuda.Device) (Learner, error) {
	if !cfg.Facts.PointTour() {
		return newGPUPairLike(cfg, dev, true)
	}
	l, err := newGPULearner(cfg, dev, func(host *spgLearner) (gpunet.Net, error) {
		d := gpunet.PairDims{B: cfg.Batch, N: cfg.N, H: cfg.Hidden, MaxIters: max(cfg.SinkhornIters, maxLiveIters),
			Factored: true, Tour: true, TargetRate: cfg.TargetCritic}
		return gpunet.NewPairwise(dev, d, specsOf(host.actor), specsOf(host.critic))
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// newGPUPairLike builds the learner of a model whose critic is the pair MLP: SPG+Pairwise, or
// SPG+Factored's actor with factored.
func newGPUPairLike(cfg run.Spec, dev cuda.Device, factored bool) (Learner, error) {
	l, err := newGPULearner(cfg, dev, func(host *spgLearner) (gpunet.Net, error) {
		d := gpunet.PairDims{B: cfg.Batch, N: cfg.N, H: cfg.Hidden, MaxIters: max(cfg.SinkhornIters, maxLiveIters),
			Sort: cfg.Facts.Values(), Factored: factored}
		return gpunet.NewPairwise(dev, d, specsOf(host.actor), specsOf(host.critic))
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// successorKernels: SPG+Successor's device step (tsp) has its slow target critic and the hard
// actor update (best's), but not the exact critic.
func successorKernels(cfg run.Spec) bool { return cfg.Critic != run.CriticExact }

// newGPUSuccessor builds SPG+Successor's learner of cfg on dev (tsp).
func newGPUSuccessor(cfg run.Spec, dev cuda.Device) (Learner, error) {
	l, err := newGPULearner(cfg, dev, func(host *spgLearner) (gpunet.Net, error) {
		d := gpunet.PairDims{B: cfg.Batch, N: cfg.N, H: cfg.Hidden, MaxIters: max(cfg.SinkhornIters, maxLiveIters),
			Successor: true, SelfLoop: nets.SelfLoopScore, TargetRate: cfg.TargetCritic,
			HardActor: cfg.ActorAt == run.ActorAtHard, RoundLog: cfg.Rounding == run.RoundingLog}
		return gpunet.NewPairwise(dev, d, specsOf(host.actor), specsOf(host.critic))
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// newGPULearner builds the CPU learner of cfg, then its network on dev with build, and copies
// the CPU learner's initial parameters there.
func newGPULearner(cfg run.Spec, dev cuda.Device, build func(host *spgLearner) (gpunet.Net, error)) (*gpuLearner, error) {
	host, err := newSPGLearner(cfg)
	if err != nil {
		return nil, err
	}
	net, err := build(host)
	if err != nil {
		return nil, err
	}
	sl, nn := cfg.Facts.StateLen(cfg.N), cfg.N*cfg.N
	l := &gpuLearner{cfg: cfg, dev: dev, net: net, host: host,
		chunk: make([]float32, cfg.Batch*sl), mChunk: make([]float32, cfg.Batch*nn)}
	if err := l.upload(); err != nil {
		net.Close()
		return nil, err
	}
	return l, nil
}

// maxLiveIters is the most Sinkhorn iterations a live change may ask of a GPU run: the saved
// buffers are sized for it once.
const maxLiveIters = 50

// specsOf lists a parameter set's names and sizes.
func specsOf(p *nets.Params) []gpunet.Spec {
	s := make([]gpunet.Spec, len(p.Specs))
	for i, sp := range p.Specs {
		size := 1
		for _, d := range sp.Shape {
			size *= d
		}
		s[i] = gpunet.Spec{Name: sp.Name, Size: size}
	}
	return s
}

func (l *gpuLearner) deviceName() string { return l.dev.Name() }

func (l *gpuLearner) launches() int64 { return l.dev.Launches() }

// stateOnHost pairs each of the network's device buffers with the host tensors that hold the
// same values between steps: parameters, Adam's moments and the target critic where there is one.
func (l *gpuLearner) stateOnHost() (dev []*gpunet.Flat, host [][][]float32) {
	h, st := l.host, l.net.State()
	mo := st.Moments
	dev = []*gpunet.Flat{st.Actor, st.Critic, mo[0], mo[1], mo[2], mo[3]}
	host = [][][]float32{h.actor.Float32s(), h.critic.Float32s(), h.actorOpt.m, h.actorOpt.v, h.criticOpt.m, h.criticOpt.v}
	if st.Target != nil {
		dev, host = append(dev, st.Target), append(host, h.target.Float32s())
	}
	return dev, host
}

// upload copies the host's parameters and Adam state to the device.
func (l *gpuLearner) upload() error {
	bufs, host := l.stateOnHost()
	var err error
	for i, f := range bufs {
		err = errors.Join(err, f.Upload(l.dev, host[i]))
	}
	*l.net.State().Steps = [2]int{l.host.actorOpt.step, l.host.criticOpt.step}
	l.hostStale = false
	return err
}

// syncHost copies the device's parameters and Adam state to the host where they are newer.
func (l *gpuLearner) syncHost() error {
	if !l.hostStale {
		return nil
	}
	bufs, host := l.stateOnHost()
	var err error
	for i, f := range bufs {
		err = errors.Join(err, f.Download(l.dev, host[i]))
	}
	steps := l.net.State().Steps
	l.host.actorOpt.step, l.host.criticOpt.step = steps[0], steps[1]
	if err == nil {
		l.hostStale = false
	}
	return err
}

// Act implements Learner: chunks of the batch size, the last padded, as the CPU learner.
func (l *gpuLearner) Act(states []float32, b int, h Hyper, m []float32) error {
	sl, nn := l.cfg.Facts.StateLen(l.cfg.N), l.cfg.N*l.cfg.N
	if b < 1 || len(states) < b*sl || len(m) < b*nn {
		return fmt.Errorf("agent: Act: %d states of %d floats into %d floats of M: want b >= 1, %d and %d floats",
			b, len(states), len(m), b*sl, b*nn)
	}
	if err := checkHyper(h); err != nil {
		return err
	}
	bs := l.cfg.Batch
	for lo := 0; lo < b; lo += bs {
		k := min(bs, b-lo)
		padChunk(l.chunk, states[lo*sl:(lo+k)*sl], sl)
		if err := l.net.Act(l.chunk, l.mChunk, float32(h.Tau), h.SinkhornIters); err != nil {
			return fmt.Errorf("agent: Act: %w", err)
		}
		if err := finiteAll("M", l.mChunk[:k*nn]); err != nil {
			return err
		}
		copy(m[lo*nn:], l.mChunk[:k*nn])
	}
	return nil
}

// Update implements Learner with the CPU learner's checks: nothing changes unless the losses,
// the Q values and the gradient norm are finite.
func (l *gpuLearner) Update(batch *Minibatch, h Hyper) (StepStats, error) {
	var st StepStats
	n, sl, b := l.cfg.N, l.cfg.Facts.StateLen(l.cfg.N), l.cfg.Batch
	if batch == nil || batch.B != b || len(batch.States) != b*sl || len(batch.P) != b*n*n ||
		len(batch.M) != b*n*n || len(batch.Reward) != b {
		return st, fmt.Errorf("agent: Update: the batch must hold exactly %d transitions", b)
	}
	if err := checkHyper(h); err != nil {
		return st, err
	}
	w := 0.0
	if h.CriticPenalty {
		w = 1
	}
	out, err := l.net.CriticGrad(batch.States, batch.P, batch.M, batch.Reward, w)
	if err != nil {
		return st, fmt.Errorf("agent: critic update: %w", err)
	}
	st.CriticLoss, st.CriticHard, st.CriticPenalty = out.Loss, out.Hard, out.Penalty
	for _, v := range []struct {
		name string
		x    float64
	}{{"critic loss", out.Loss}, {"critic hard loss", out.Hard}, {"critic penalty", out.Penalty}, {"critic gradient norm", out.GradNorm}} {
		if err := finiteValue(v.name, v.x); err != nil {
			return st, err
		}
	}
	if err := errors.Join(finiteAll("Q(s,P)", out.QHard), finiteAll("Q(s,M)", out.QSoft)); err != nil {
		return st, err
	}
	st.QHard, st.QSoft = mean32(out.QHard), mean32(out.QSoft)
	l.foldRunning(out)
	opt := gpunet.AdamConfig{Beta1: l.cfg.AdamBeta1, Beta2: l.cfg.AdamBeta2, Eps: l.cfg.AdamEps}
	l.hostStale = true
	if err := l.net.ApplyCritic(opt, h.CriticLR, clipScale(out.GradNorm, h.ClipNorm)); err != nil {
		return st, err
	}
	if h.CriticOnly {
		return st, nil
	}
	loss, norm, err := l.net.ActorGrad(float32(h.Tau), h.SinkhornIters)
	if err != nil {
		return st, fmt.Errorf("agent: actor update: %w", err)
	}
	st.ActorLoss = loss
	if err := errors.Join(finiteValue("actor loss", loss), finiteValue("actor gradient norm", norm)); err != nil {
		return st, err
	}
	return st, l.net.ApplyActor(opt, h.ActorLR, clipScale(norm, h.ClipNorm))
}

// foldRunning folds the update's batch statistics into the host's running estimates in
// PyTorch's order, as the CPU learner's criticStep does.
func (l *gpuLearner) foldRunning(out gpunet.CriticOut) {
	for _, st := range out.BN {
		at := l.host.runningIndex(st.Layer)
		mean, variance := l.host.running.Vals[at].Data().([]float32), l.host.running.Vals[at+1].Data().([]float32)
		batchnorm.UpdateRunning(mean, variance, st.Mean, st.InvStd, st.Count, float32(bnMomentum), float32(batchnorm.DefaultEps))
	}
}

// Q implements Learner on the host (inference-mode batch norm with the running statistics).
func (l *gpuLearner) Q(states, p, m []float32, b int, qHard, qSoft []float32) error {
	if err := l.syncHost(); err != nil {
		return err
	}
	return l.host.Q(states, p, m, b, qHard, qSoft)
}

// Scores implements Scorer on the host.
func (l *gpuLearner) Scores(states []float32, b int, h Hyper, x, m []float32) error {
	if err := l.syncHost(); err != nil {
		return err
	}
	return l.host.Scores(states, b, h, x, m)
}

// MarshalBinary implements Learner: the CPU learner's bytes.
func (l *gpuLearner) MarshalBinary() ([]byte, error) {
	if err := l.syncHost(); err != nil {
		return nil, err
	}
	return l.host.MarshalBinary()
}

// UnmarshalBinary implements Learner: the CPU learner's bytes, then onto the device.
func (l *gpuLearner) UnmarshalBinary(data []byte) error {
	if err := l.host.UnmarshalBinary(data); err != nil {
		return err
	}
	return l.upload()
}
