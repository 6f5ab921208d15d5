package learn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The pieces of the learners' binary states (learner_binary.go, reinforce_binary.go): a magic
// and version header, length-prefixed strings, and length-prefixed little-endian float32 arrays.

// appendHeader starts a state: magic, then version as a little-endian uint32.
func appendHeader(magic string, version uint32) []byte {
	return binary.LittleEndian.AppendUint32([]byte(magic), version)
}

// appendString appends s with a uint32 length prefix.
func appendString(b []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint32(b, uint32(len(s))), s...)
}

// appendArrays appends each array as its length (uint32) and its values' float32 bits.
func appendArrays(b []byte, arrays [][]float32) []byte {
	for _, a := range arrays {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(a)))
		for _, v := range a {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
		}
	}
	return b
}

// stateReader consumes a byte slice; after the first short read it returns zeros and keeps err.
type stateReader struct {
	b   []byte
	err error
}

// header reads what appendHeader wrote, returning other for data of another magic.
func (r *stateReader) header(magic string, version uint32, other error) error {
	if string(r.bytes(len(magic))) != magic {
		return other
	}
	if v := r.uint32(); v != version {
		return fmt.Errorf("agent: learner state version %d, want %d", v, version)
	}
	return nil
}

// arrays reads what appendArrays wrote for arrays of like's lengths into new slices, so that a
// failed read leaves like as it was.
func (r *stateReader) arrays(like [][]float32) ([][]float32, error) {
	out := make([][]float32, len(like))
	for i, a := range like {
		k := int(r.uint32())
		if r.err == nil && k != len(a) {
			return nil, fmt.Errorf("agent: learner state has an array of %d values where %d are expected", k, len(a))
		}
		raw := r.bytes(4 * len(a))
		if r.err != nil {
			return nil, r.err
		}
		out[i] = make([]float32, len(a))
		for j := range out[i] {
			out[i][j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
		}
	}
	return out, nil
}

// end reports a short read, or bytes left over after the state.
func (r *stateReader) end() error {
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("agent: learner state has %d bytes too many", len(r.b))
	}
	return nil
}

func (r *stateReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errors.New("agent: learner state is truncated")
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *stateReader) uint32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *stateReader) uint64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}
