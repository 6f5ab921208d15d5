package authors

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// npyMagic opens every .npy file.
const npyMagic = "\x93NUMPY"

// maxNpyHeader bounds the header an .npy file may declare (NumPy's own reader allows 10,000
// bytes by default).
const maxNpyHeader = 1 << 16

// readNpyFloat32 reads the .npy entry f of an .npz archive: a little-endian float32 array in C
// order, whose data must be exactly what its header's shape holds. checkShape vets the shape
// before any data is read. The errors complete the sentence "array NAME ...".
func readNpyFloat32(f *zip.File, checkShape func(shape []int) error) (shape []int, data []float32, err error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("is unreadable (%v)", err)
	}
	defer rc.Close()
	var pre [10]byte
	if _, err := io.ReadFull(rc, pre[:8]); err != nil || string(pre[:6]) != npyMagic {
		return nil, nil, errors.New("is not a NumPy .npy file (no \\x93NUMPY magic)")
	}
	var hlen uint64
	prelude := uint64(10)
	switch pre[6] {
	case 1:
		if _, err := io.ReadFull(rc, pre[8:10]); err != nil {
			return nil, nil, errors.New("has a truncated header")
		}
		hlen = uint64(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var l [4]byte
		if _, err := io.ReadFull(rc, l[:]); err != nil {
			return nil, nil, errors.New("has a truncated header")
		}
		hlen, prelude = uint64(binary.LittleEndian.Uint32(l[:])), 12
	default:
		return nil, nil, fmt.Errorf("is .npy format version %d.%d, want 1, 2 or 3", pre[6], pre[7])
	}
	if hlen > maxNpyHeader {
		return nil, nil, fmt.Errorf("declares a header of %d bytes, more than %d", hlen, maxNpyHeader)
	}
	head := make([]byte, hlen)
	if _, err := io.ReadFull(rc, head); err != nil {
		return nil, nil, errors.New("has a truncated header")
	}
	h, err := parseNpyHeader(string(head))
	if err != nil {
		return nil, nil, fmt.Errorf("has a bad header: %v", err)
	}
	if h.descr != "<f4" {
		return nil, nil, fmt.Errorf("is of dtype %q, want little-endian float32 ('<f4')", h.descr)
	}
	if h.fortran {
		return nil, nil, errors.New("is stored in Fortran order (fortran_order: True); want C order (numpy.ascontiguousarray)")
	}
	if err := checkShape(h.shape); err != nil {
		return nil, nil, err
	}
	need := uint64(4)
	for _, d := range h.shape {
		hi, lo := bits.Mul64(need, uint64(d))
		if hi != 0 {
			return nil, nil, fmt.Errorf("has shape %s, too large", shapeString(h.shape, 0))
		}
		need = lo
	}
	// archive/zip refuses an entry whose data differs from its declared size, so this is the
	// size of what follows the header.
	if have := f.UncompressedSize64 - min(f.UncompressedSize64, prelude+hlen); have != need {
		return nil, nil, fmt.Errorf("holds %d bytes of data, but its header's shape %s of float32 needs %d", have, shapeString(h.shape, 0), need)
	}
	raw := make([]byte, need)
	if _, err := io.ReadFull(rc, raw); err != nil {
		return nil, nil, fmt.Errorf("is unreadable (%v)", err)
	}
	// Reading to the end checks the entry's CRC.
	if _, err := io.ReadFull(rc, pre[:1]); err != io.EOF {
		if err == nil {
			err = errors.New("more data than its zip entry declares")
		}
		return nil, nil, fmt.Errorf("is unreadable (%v)", err)
	}
	data = make([]float32, need/4)
	for i := range data {
		data[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return h.shape, data, nil
}

// npyHeader is the dictionary that heads an .npy file, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (384, 128), }.
type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
}

// parseNpyHeader reads the header's Python dictionary literal: exactly the keys descr (a
// string), fortran_order (True or False) and shape (a tuple of non-negative integers).
func parseNpyHeader(s string) (npyHeader, error) {
	var h npyHeader
	p := pyLiteral{s: strings.TrimRight(s, " \n")}
	seen := map[string]bool{}
	if !p.take('{') {
		return h, fmt.Errorf("%s is not a dictionary", quoteHead(s))
	}
	for !p.take('}') {
		key, err := p.str()
		if err != nil {
			return h, err
		}
		if seen[key] {
			return h, fmt.Errorf("key '%s' appears twice", key)
		}
		seen[key] = true
		if !p.take(':') {
			return h, fmt.Errorf("no ':' after '%s'", key)
		}
		switch key {
		case "descr":
			h.descr, err = p.str()
		case "fortran_order":
			h.fortran, err = p.boolean()
		case "shape":
			h.shape, err = p.tuple()
		default:
			err = fmt.Errorf("unknown key '%s'", key)
		}
		if err != nil {
			return h, err
		}
		if !p.take(',') && !p.peek('}') {
			return h, fmt.Errorf("%s: want ',' or '}' after '%s'", quoteHead(s), key)
		}
	}
	if p.skip(); p.i != len(p.s) {
		return h, fmt.Errorf("%s: text after the dictionary", quoteHead(s))
	}
	var missing []string
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			missing = append(missing, "'"+k+"'")
		}
	}
	if len(missing) > 0 {
		return h, fmt.Errorf("%s lacks %s", quoteHead(s), strings.Join(missing, ", "))
	}
	return h, nil
}

// quoteHead is the start of a header, for a message.
func quoteHead(s string) string {
	s = strings.TrimRight(s, " \n")
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strconv.Quote(s)
}

// pyLiteral scans the Python literals of an .npy header.
type pyLiteral struct {
	s string
	i int
}

func (p *pyLiteral) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// peek reports whether c is next, after spaces.
func (p *pyLiteral) peek(c byte) bool {
	p.skip()
	return p.i < len(p.s) && p.s[p.i] == c
}

// take consumes c if it is next, after spaces.
func (p *pyLiteral) take(c byte) bool {
	if p.peek(c) {
		p.i++
		return true
	}
	return false
}

// str reads a quoted string without escapes.
func (p *pyLiteral) str() (string, error) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("want a quoted string at byte %d", p.i)
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 || strings.ContainsRune(p.s[p.i+1:p.i+1+end], '\\') {
		return "", fmt.Errorf("unterminated string at byte %d", p.i)
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

// boolean reads True or False.
func (p *pyLiteral) boolean() (bool, error) {
	p.skip()
	for _, w := range []string{"True", "False"} {
		if strings.HasPrefix(p.s[p.i:], w) {
			p.i += len(w)
			return w == "True", nil
		}
	}
	return false, fmt.Errorf("fortran_order is not True or False at byte %d", p.i)
}

// tuple reads a tuple of non-negative integers: (), (5,), (3, 4).
func (p *pyLiteral) tuple() ([]int, error) {
	if !p.take('(') {
		return nil, fmt.Errorf("shape is not a tuple at byte %d", p.i)
	}
	shape := []int{}
	for !p.take(')') {
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		d, err := strconv.ParseInt(p.s[p.i:j], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("shape has no dimension of at most %d at byte %d", math.MaxInt32, p.i)
		}
		shape = append(shape, int(d))
		p.i = j
		if !p.take(',') && !p.peek(')') {
			return nil, fmt.Errorf("shape: want ',' or ')' at byte %d", p.i)
		}
	}
	return shape, nil
}
