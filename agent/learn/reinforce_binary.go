package learn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The critic-free learner's binary state: magic, version, model, task, N and hidden width, the
// moving-average baseline (float64 bits, then 1 if set), then as length-prefixed little-endian
// float32 arrays the parameters, and Adam's step count and first and second moments.
const (
	reinforceMagic   = "SPGR"
	reinforceVersion = 1
)

// MarshalBinary implements Learner: everything a resumed run needs to continue bit for bit.
func (l *reinforceLearner) MarshalBinary() ([]byte, error) {
	b := appendHeader(reinforceMagic, reinforceVersion)
	b = appendString(b, l.cfg.Model)
	b = appendString(b, string(l.cfg.Task))
	b = binary.LittleEndian.AppendUint32(b, uint32(l.cfg.N))
	b = binary.LittleEndian.AppendUint32(b, uint32(l.cfg.Hidden))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.baseline))
	set := byte(0)
	if l.baselineSet {
		set = 1
	}
	b = append(b, set)
	b = binary.LittleEndian.AppendUint64(b, uint64(l.opt.step))
	return appendArrays(b, l.arrays()), nil
}

// arrays lists the parameters and Adam's moments in serialisation order.
func (l *reinforceLearner) arrays() [][]float32 {
	out := l.w.Float32s()
	out = append(out, l.opt.m...)
	return append(out, l.opt.v...)
}

// UnmarshalBinary implements Learner. The data must come from a learner of the same model, task,
// size and hidden width; on any error the learner is left unchanged.
func (l *reinforceLearner) UnmarshalBinary(data []byte) error {
	r := stateReader{b: data}
	if err := r.header(reinforceMagic, reinforceVersion, errors.New("agent: not a critic-free learner state")); err != nil {
		return err
	}
	model := string(r.bytes(int(r.uint32())))
	task := string(r.bytes(int(r.uint32())))
	n, h := int(r.uint32()), int(r.uint32())
	if r.err == nil && (model != l.cfg.Model || task != string(l.cfg.Task) || n != l.cfg.N || h != l.cfg.Hidden) {
		return fmt.Errorf("agent: learner state is for %s on %s n=%d hidden=%d, this learner is %s on %s n=%d hidden=%d",
			model, task, n, h, l.cfg.Model, l.cfg.Task, l.cfg.N, l.cfg.Hidden)
	}
	baseline := math.Float64frombits(r.uint64())
	set := r.bytes(1)
	step := int(r.uint64())
	arrays := l.arrays()
	decoded, err := r.arrays(arrays)
	if err == nil {
		err = r.end()
	}
	if err != nil {
		return err
	}
	for i, a := range arrays {
		copy(a, decoded[i])
	}
	l.baseline, l.baselineSet, l.opt.step = baseline, set[0] == 1, step
	return nil
}
