package ops

import (
	"fmt"
	"hash"
	"sync/atomic"
)

// lastID numbers every op instance this package creates.
var lastID atomic.Uint64

// ident gives an op instance a hash that no other op instance of this package shares, so
// gorgonia's common-subexpression elimination (by node and op hash) never merges two
// applications, e.g. the critic applied to P and to M.
type ident struct {
	id   uint64
	name string
}

func newIdent(kind string) ident {
	id := lastID.Add(1)
	return ident{id: id, name: fmt.Sprintf("%s#%d", kind, id)}
}

// WriteHash writes the op's unique name.
func (o ident) WriteHash(h hash.Hash) { h.Write([]byte("spg-tui/agent/ops." + o.name)) }

// Hashcode is a bijection of the instance number, so two instances collide only after 2^32 ops.
func (o ident) Hashcode() uint32 { return uint32(o.id)*0x9e3779b1 ^ 0x5f0e1c2d }

// String names the op in gorgonia's logs and errors.
func (o ident) String() string { return o.name }
