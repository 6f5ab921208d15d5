package gpunet

import (
	"fmt"

	"spg-tui/linalg/cuda"
)

// Spec names one parameter tensor and its element count, in a network's order.
type Spec struct {
	Name string
	Size int
}

// Flat is a network's parameters (or their gradients, or Adam's moments) in one device buffer,
// each tensor at its offset in spec order: one kernel updates or measures them all.
type Flat struct {
	buf    cuda.Buf
	offset map[string]int
	size   map[string]int
	specs  []Spec
}

// newFlat allocates a zeroed flat buffer for specs.
func newFlat(dev cuda.Device, specs []Spec) (*Flat, error) {
	f := &Flat{offset: map[string]int{}, size: map[string]int{}, specs: specs}
	total := 0
	for _, s := range specs {
		if _, dup := f.offset[s.Name]; dup || s.Size < 1 {
			return nil, fmt.Errorf("gpunet: parameter %q repeated or empty", s.Name)
		}
		f.offset[s.Name], f.size[s.Name] = total, s.Size
		total += s.Size
	}
	var err error
	f.buf, err = dev.Alloc(total)
	return f, err
}

// get returns the named tensor's part of the buffer; a name the network lacks is a bug.
func (f *Flat) get(name string) cuda.Buf {
	off, ok := f.offset[name]
	if !ok {
		panic("gpunet: no parameter " + name)
	}
	return f.buf.At(off, f.size[name])
}

// Upload copies host tensors (in spec order) into the buffer.
func (f *Flat) Upload(dev cuda.Device, vals [][]float32) error {
	if len(vals) != len(f.specs) {
		return fmt.Errorf("gpunet: %d tensors for %d parameters", len(vals), len(f.specs))
	}
	for i, s := range f.specs {
		if len(vals[i]) != s.Size {
			return fmt.Errorf("gpunet: parameter %s has %d values, want %d", s.Name, len(vals[i]), s.Size)
		}
		if err := dev.Upload(f.get(s.Name), vals[i]); err != nil {
			return err
		}
	}
	return nil
}

// Download copies the buffer into host tensors (in spec order).
func (f *Flat) Download(dev cuda.Device, vals [][]float32) error {
	if len(vals) != len(f.specs) {
		return fmt.Errorf("gpunet: %d tensors for %d parameters", len(vals), len(f.specs))
	}
	for i, s := range f.specs {
		if len(vals[i]) != s.Size {
			return fmt.Errorf("gpunet: parameter %s has %d values, want %d", s.Name, len(vals[i]), s.Size)
		}
		if err := dev.Download(vals[i], f.get(s.Name)); err != nil {
			return err
		}
	}
	return nil
}

// free releases the buffer.
func (f *Flat) free(dev cuda.Device) { dev.Free(f.buf) }
