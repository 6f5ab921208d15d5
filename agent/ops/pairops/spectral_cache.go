package pairops

import (
	"bytes"
	"container/list"
	"hash/maphash"
	"math"
	"sync"
	"unsafe"

	"spg-tui/agent/ops"
)

// SpectralCacheBytes bounds the memory of the similarities SpectralSimilarity keeps, keys
// included: 128 MiB hold about 12,500 graph pairs at N = 50 in float32 (10.8 KB each: the
// pair's adjacencies packed to bits as its key, the N² entries of its similarity), the
// states of the last 97 steps of batch 128, and 73,000 at N = 20 (570 steps).
const SpectralCacheBytes = 128 << 20

// pairEntryOverhead is what an entry costs beside its key and value (the entry, its list
// element and map slot), counted so that the bound holds for small pairs too.
const pairEntryOverhead = 128

// spectralCache keeps the similarities of the graph pairs SpectralSimilarity met last. They
// depend only on the pair, yet a training step needs them twice (acting on its fresh states,
// then updating on a minibatch drawn from the replay buffer, which holds recent ones) and
// validation needs its set's every time, and their eigendecompositions cost nearly as much as
// the rest of spg-gm-logstep's step at N = 50 (docs/results.md).
var spectralCache = newPairCache(SpectralCacheBytes)

// pairCache is a least-recently-used map from a graph pair's key to its similarity's bytes,
// bounded in memory. It is keyed by a hash of the pair and checked against the pair's whole
// content, so a colliding or changed pair is a miss, never another pair's value. It is safe
// for concurrent use.
type pairCache struct {
	mu      sync.Mutex
	limit   int // bytes
	used    int
	hash    func([]byte) uint64
	entries map[uint64]*list.Element // hash -> element whose Value is a *pairEntry
	lru     list.List                // most recently used first
}

// pairEntry is one cached similarity.
type pairEntry struct {
	hash     uint64
	key, val []byte
}

func (e *pairEntry) size() int { return len(e.key) + len(e.val) + pairEntryOverhead }

// newPairCache returns an empty cache that holds at most limit bytes.
func newPairCache(limit int) *pairCache {
	seed := maphash.MakeSeed()
	return &pairCache{
		limit:   limit,
		hash:    func(b []byte) uint64 { return maphash.Bytes(seed, b) },
		entries: make(map[uint64]*list.Element),
	}
}

// get copies the value cached for key into dst and reports whether there was one: an entry
// whose key equals key byte for byte and whose value is as long as dst.
func (c *pairCache) get(key, dst []byte) bool {
	h := c.hash(key)
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[h]
	if !ok {
		return false
	}
	e := el.Value.(*pairEntry)
	if len(e.val) != len(dst) || !bytes.Equal(e.key, key) {
		return false
	}
	copy(dst, e.val)
	c.lru.MoveToFront(el)
	return true
}

// put caches a copy of val for key, in place of any entry with key's hash, and drops the least
// recently used entries until the cache is within its limit again. A value that alone exceeds
// the limit is not kept.
func (c *pairCache) put(key, val []byte) {
	e := &pairEntry{hash: c.hash(key), key: bytes.Clone(key), val: bytes.Clone(val)}
	if e.size() > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[e.hash]; ok {
		c.remove(old)
	}
	for c.used+e.size() > c.limit {
		c.remove(c.lru.Back())
	}
	c.entries[e.hash] = c.lru.PushFront(e)
	c.used += e.size()
}

// remove drops el's entry; c.mu is held.
func (c *pairCache) remove(el *list.Element) {
	e := c.lru.Remove(el).(*pairEntry)
	delete(c.entries, e.hash)
	c.used -= e.size()
}

// spectralKey is the cache key of a graph pair: its element size and, where every entry is
// +0 or 1 (an adjacency matrix, as every gm state is), the entries packed one bit each, else
// their bytes as they are. A leading byte says which, so the two forms never meet.
func spectralKey[T ops.Float](pair []T) []byte {
	var zero T
	size := byte(unsafe.Sizeof(zero))
	for _, v := range pair {
		// -0 stays unpacked: the eigensolver's reflections follow the sign of a zero.
		if v != 1 && (v != 0 || math.Signbit(float64(v))) {
			return append([]byte{0, size}, bytesOf(pair)...)
		}
	}
	key := make([]byte, 2+(len(pair)+7)/8)
	key[0], key[1] = 1, size
	for i, v := range pair {
		if v == 1 {
			key[2+i/8] |= 1 << (i % 8)
		}
	}
	return key
}

// bytesOf views s's elements as bytes, without copying.
func bytesOf[T any](s []T) []byte {
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(zero)))
}
