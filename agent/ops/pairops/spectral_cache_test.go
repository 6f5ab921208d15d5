package pairops

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

// withSpectralCache runs f with an empty spectralCache of limit bytes and restores the old one.
func withSpectralCache(t *testing.T, limit int, f func(c *pairCache)) {
	t.Helper()
	old := spectralCache
	spectralCache = newPairCache(limit)
	defer func() { spectralCache = old }()
	f(spectralCache)
}

// spectralForward runs SpectralSimilarity on x in dtype dt.
func spectralForward(t *testing.T, dt tensor.Dtype, x *tensor.Dense) []float64 {
	t.Helper()
	return opstest.RunForward(t, dt, []*tensor.Dense{x}, func(p []*G.Node) (*G.Node, error) { return SpectralSimilarity(p[0]) })
}

// freshSimilarity computes pair g's similarity of x without the cache.
func freshSimilarity[T interface{ float32 | float64 }](t *testing.T, x *tensor.Dense, g int) []T {
	t.Helper()
	n := x.Shape()[2]
	pair := make([]T, 2*n*n)
	for i, v := range x.Float64s()[g*2*n*n:][:2*n*n] {
		pair[i] = T(v)
	}
	dst := make([]T, n*n)
	if err := spectralPair(pair, dst, n); err != nil {
		t.Fatal(err)
	}
	return dst
}

// sameBits reports whether got (float64s of a forward pass in dtype T) holds want's values
// bit for bit.
func sameBits[T float32 | float64](got []float64, want []T) bool {
	if len(got) != len(want) {
		return false
	}
	for i, v := range want {
		if T(got[i]) != v || math.Signbit(got[i]) != math.Signbit(float64(v)) {
			return false
		}
	}
	return true
}

// A pair's second pass takes its similarity from the cache (a value planted there comes back),
// and what the cache serves is what the eigensolver gives, bit for bit, in both dtypes.
func TestSpectralCacheServesTheFreshValue(t *testing.T) {
	const b, n = 3, 8
	x := randAdjacency(rand.New(rand.NewPCG(35, 1)), b, n)
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		t.Run(dt.String(), func(t *testing.T) {
			withSpectralCache(t, SpectralCacheBytes, func(c *pairCache) {
				first := spectralForward(t, dt, x)
				if c.lru.Len() != b {
					t.Fatalf("the cache holds %d pairs after one pass over %d", c.lru.Len(), b)
				}
				second := spectralForward(t, dt, x)
				for g := range b {
					a, s := first[g*n*n:][:n*n], second[g*n*n:][:n*n]
					fresh := dt == tensor.Float32 && sameBits(a, freshSimilarity[float32](t, x, g)) && sameBits(s, freshSimilarity[float32](t, x, g)) ||
						dt == tensor.Float64 && sameBits(a, freshSimilarity[float64](t, x, g)) && sameBits(s, freshSimilarity[float64](t, x, g))
					if !fresh {
						t.Errorf("pair %d: the passes differ from the eigensolver's value", g)
					}
				}
				// Plant a value: the next pass must serve it, or the cache was not consulted.
				e := c.lru.Front().Value.(*pairEntry)
				clear(e.val)
				if slices.Equal(spectralForward(t, dt, x), second) {
					t.Error("a planted cache entry was not served: the cache is not used")
				}
			})
		})
	}
}

// Changing one edge of a pair gives that pair a fresh similarity and leaves the others' alone.
func TestSpectralCacheChangedPair(t *testing.T) {
	const b, n = 2, 8
	x := randAdjacency(rand.New(rand.NewPCG(35, 2)), b, n)
	withSpectralCache(t, SpectralCacheBytes, func(*pairCache) {
		before := spectralForward(t, tensor.Float64, x)
		v := x.Float64s()
		v[2*n+5], v[5*n+2] = 1-v[2*n+5], 1-v[5*n+2] // G1's edge (2, 5) of pair 0 flips
		after := spectralForward(t, tensor.Float64, x)
		if !sameBits(after[:n*n], freshSimilarity[float64](t, x, 0)) {
			t.Error("the changed pair's similarity is not its fresh value")
		}
		if slices.Equal(after[:n*n], before[:n*n]) {
			t.Error("the changed pair kept its old similarity")
		}
		if !slices.Equal(after[n*n:], before[n*n:]) {
			t.Error("the unchanged pair's similarity moved")
		}
	})
}

// Keys that share a hash are told apart by content, and a value of another length is a miss.
func TestPairCacheChecksContent(t *testing.T) {
	c := newPairCache(1 << 20)
	c.hash = func([]byte) uint64 { return 7 } // every key collides
	k1, k2, v1, v2 := []byte("pair one"), []byte("pair two"), []byte{1, 2, 3, 4}, []byte{5, 6, 7, 8}
	dst := make([]byte, 4)
	c.put(k1, v1)
	if c.get(k2, dst) {
		t.Errorf("a colliding key got %v", dst)
	}
	if c.get(k1, make([]byte, 8)) {
		t.Error("a value of 4 bytes was served into 8")
	}
	if !c.get(k1, dst) || !bytes.Equal(dst, v1) {
		t.Errorf("key one: %v, want %v", dst, v1)
	}
	c.put(k2, v2)
	if c.get(k1, dst) {
		t.Error("key one still served after key two replaced it")
	}
	if !c.get(k2, dst) || !bytes.Equal(dst, v2) {
		t.Errorf("key two: %v, want %v", dst, v2)
	}
	if c.lru.Len() != 1 || len(c.entries) != 1 {
		t.Errorf("%d entries listed, %d mapped; want 1", c.lru.Len(), len(c.entries))
	}
}

// The cache never holds more than its limit, keeps the most recently used entries (entry 0,
// read after every put, and the newest nine), and does
// not keep a value larger than the limit.
func TestPairCacheMemoryBound(t *testing.T) {
	const keep, keyLen, valLen = 10, 64, 32
	size := keyLen + valLen + pairEntryOverhead
	c := newPairCache(keep*size + size/2)
	key := func(i int) []byte { return []byte(fmt.Sprintf("%0*d", keyLen, i)) }
	val := make([]byte, valLen)
	dst := make([]byte, valLen)
	for i := range 100 {
		val[0] = byte(i)
		c.put(key(i), val)
		if !c.get(key(0), dst) { // touched after every put, so never the least recently used
			t.Fatalf("after %d puts entry 0 is gone", i+1)
		}
		held := 0
		for el := c.lru.Front(); el != nil; el = el.Next() {
			held += el.Value.(*pairEntry).size()
		}
		if held != c.used || c.used > c.limit || c.lru.Len() > keep || len(c.entries) != c.lru.Len() {
			t.Fatalf("after %d puts: %d entries of %d bytes (counted %d), limit %d", i+1, c.lru.Len(), held, c.used, c.limit)
		}
	}
	if c.get(key(1), dst) || c.get(key(90), dst) {
		t.Error("old entries survived 100 puts into room for 10")
	}
	if !c.get(key(99), dst) || dst[0] != 99 {
		t.Errorf("the newest entry: %v", dst)
	}
	c.put([]byte("big"), make([]byte, c.limit))
	if c.get([]byte("big"), make([]byte, c.limit)) || c.lru.Len() != keep {
		t.Errorf("a value above the limit was kept (%d entries)", c.lru.Len())
	}
}

// Adjacency pairs are keyed by their bits, anything else by its bytes; the element size is
// part of the key, and a -0 or a changed entry makes another key.
func TestSpectralKey(t *testing.T) {
	graph := []float64{0, 1, 1, 0, 1, 0, 0, 1}
	packed := spectralKey(graph)
	if want := []byte{1, 8, 0b10010110}; !bytes.Equal(packed, want) {
		t.Errorf("adjacency key %08b, want %08b", packed, want)
	}
	if k := spectralKey([]float32{0, 1, 1, 0, 1, 0, 0, 1}); bytes.Equal(k, packed) {
		t.Error("the float32 pair has the float64 pair's key")
	}
	other := slices.Clone(graph)
	other[7] = 0
	if bytes.Equal(spectralKey(other), packed) {
		t.Error("a changed entry kept the key")
	}
	for _, v := range []float64{math.Copysign(0, -1), 0.5, 2} {
		odd := slices.Clone(graph)
		odd[3] = v
		k := spectralKey(odd)
		if k[0] != 0 || !bytes.Equal(k[2:], bytesOf(odd)) {
			t.Errorf("entry %v: key %v, want its bytes", v, k)
		}
	}
}

// States that are not 0/1 adjacencies are cached by their bytes, and served as computed.
func TestSpectralCacheWeightedPairs(t *testing.T) {
	const b, n = 2, 6
	rng := rand.New(rand.NewPCG(35, 3))
	x := randAdjacency(rng, b, n)
	for i, v := range x.Float64s() {
		x.Float64s()[i] = v * (0.5 + rng.Float64()) // symmetric entries read only above the diagonal
	}
	withSpectralCache(t, SpectralCacheBytes, func(c *pairCache) {
		first := spectralForward(t, tensor.Float64, x)
		second := spectralForward(t, tensor.Float64, x)
		for g := range b {
			if !sameBits(second[g*n*n:][:n*n], freshSimilarity[float64](t, x, g)) || !slices.Equal(first, second) {
				t.Errorf("pair %d: the cached similarity differs from the fresh one", g)
			}
		}
		if c.lru.Len() != b || c.lru.Front().Value.(*pairEntry).key[0] != 0 {
			t.Errorf("%d entries, want %d keyed by their bytes", c.lru.Len(), b)
		}
	})
}
