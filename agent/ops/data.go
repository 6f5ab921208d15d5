package ops

import (
	"fmt"
	"unsafe"

	"gorgonia.org/tensor"
)

// Float is the element type of the tensors kernels work on.
type Float interface{ float32 | float64 }

// Data returns the elements of d as a []T without copying or allocating. It panics if d does not
// hold T. For the tensors a Kernel is given the slice is the tensor in row-major order.
func Data[T Float](d *tensor.Dense) []T {
	var zero T
	switch any(zero).(type) {
	case float32:
		if d.Dtype() != tensor.Float32 {
			panic(fmt.Sprintf("ops: Data[float32] of a %v tensor", d.Dtype()))
		}
		s := d.Float32s()
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
	default:
		if d.Dtype() != tensor.Float64 {
			panic(fmt.Sprintf("ops: Data[float64] of a %v tensor", d.Dtype()))
		}
		s := d.Float64s()
		return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
	}
}
