package learn

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The learner's binary state: magic, version, task, N and hidden width, then as length-prefixed
// little-endian float32 arrays the actor's parameters, the critic's parameters, the critic's
// running statistics, for the actor's and then the critic's Adam its step count and first
// and second moments, and the target critic's parameters when the run has one.
const (
	learnerMagic   = "SPGL"
	learnerVersion = 1
)

// MarshalBinary implements Learner: everything a resumed run needs to continue bit for bit.
func (l *spgLearner) MarshalBinary() ([]byte, error) {
	b := appendHeader(learnerMagic, learnerVersion)
	b = appendString(b, string(l.cfg.Task))
	b = binary.LittleEndian.AppendUint32(b, uint32(l.cfg.N))
	b = binary.LittleEndian.AppendUint32(b, uint32(l.cfg.Hidden))
	for _, arrays := range l.stateArrays() {
		b = binary.LittleEndian.AppendUint64(b, uint64(arrays.step()))
		b = appendArrays(b, arrays.data)
	}
	return b, nil
}

// stateGroup is a group of arrays of the learner's state; step is the Adam step count of an
// optimiser's group (0 otherwise).
type stateGroup struct {
	data [][]float32
	opt  *adam[float32]
}

func (g stateGroup) step() int {
	if g.opt == nil {
		return 0
	}
	return g.opt.step
}

// stateArrays lists the learner's state in serialisation order; a target critic comes last.
func (l *spgLearner) stateArrays() []stateGroup {
	g := []stateGroup{
		{data: l.actor.Float32s()},
		{data: l.critic.Float32s()},
		{data: l.running.Float32s()},
		{data: append(append([][]float32(nil), l.actorOpt.m...), l.actorOpt.v...), opt: l.actorOpt},
		{data: append(append([][]float32(nil), l.criticOpt.m...), l.criticOpt.v...), opt: l.criticOpt},
	}
	if l.target != nil {
		g = append(g, stateGroup{data: l.target.Float32s()})
	}
	return g
}

// UnmarshalBinary implements Learner. The data must come from a learner of the same task, size
// and hidden width; on any error the learner is left unchanged.
func (l *spgLearner) UnmarshalBinary(data []byte) error {
	r := stateReader{b: data}
	if err := r.header(learnerMagic, learnerVersion, errors.New("agent: not a learner state")); err != nil {
		return err
	}
	task := string(r.bytes(int(r.uint32())))
	n, h := int(r.uint32()), int(r.uint32())
	if r.err == nil && (task != string(l.cfg.Task) || n != l.cfg.N || h != l.cfg.Hidden) {
		return fmt.Errorf("agent: learner state is for %s n=%d hidden=%d, this learner is %s n=%d hidden=%d",
			task, n, h, l.cfg.Task, l.cfg.N, l.cfg.Hidden)
	}
	groups := l.stateArrays()
	steps := make([]int, len(groups))
	decoded := make([][][]float32, len(groups))
	for gi, g := range groups {
		steps[gi] = int(r.uint64())
		var err error
		if decoded[gi], err = r.arrays(g.data); err != nil {
			return err
		}
	}
	if err := r.end(); err != nil {
		return err
	}
	for gi, g := range groups {
		for i, a := range g.data {
			copy(a, decoded[gi][i])
		}
		if g.opt != nil {
			g.opt.step = steps[gi]
		}
	}
	return nil
}

// ResizedState is the learner state data with its recorded N set to n (see MarshalBinary's
// layout: magic, version, task, N): the parameters of a model that runs at any N are the same
// arrays at every N, which UnmarshalBinary still checks one by one.
func ResizedState(data []byte, n int) []byte {
	at := len(learnerMagic) + 4
	if len(data) < at+4 {
		return data
	}
	at += 4 + int(binary.LittleEndian.Uint32(data[at:]))
	if at < 0 || len(data) < at+4 {
		return data
	}
	out := append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(out[at:], uint32(n))
	return out
}
