package ops

import "gorgonia.org/tensor"

// Kernel is a fused layer: a forward pass over n input tensors giving one output tensor, and a
// backward pass that maps the output's gradient to the gradients of the inputs it differentiates.
//
// Every tensor handed to a kernel is a contiguous row-major *tensor.Dense of the graph's dtype
// (float32 or float64) and of exactly the shape the graph declares; read its elements with Data.
// Kernels must not modify their inputs and must not keep references to any tensor they are given
// past the call: the buffers are reused from run to run.
//
// A Kernel value belongs to one application (one call to Apply): Forward may save state in it
// (e.g. Sinkhorn's log-iterates) that the next Backward reads, and gorgonia always runs an
// application's Backward after its Forward in the same run. Never pass the same Kernel value to
// Apply twice.
type Kernel interface {
	// Name names the layer in node names and error messages.
	Name() string
	// OutShape returns the output shape for the given input shapes, or an error if they do not
	// fit the layer. The output must have at least one axis.
	OutShape(in []tensor.Shape) (tensor.Shape, error)
	// Differentiable reports whether the gradient with respect to input i is defined and wanted.
	Differentiable(i int) bool
	// Forward writes the layer's output into out, overwriting every element.
	Forward(in []*tensor.Dense, out *tensor.Dense) error
	// Backward writes into every non-nil dIn[i] the gradient of the loss with respect to in[i],
	// given the forward output out and its gradient dOut. It overwrites dIn[i]; it does not
	// accumulate. dIn[i] is nil exactly when Differentiable(i) is false.
	Backward(in []*tensor.Dense, out, dOut *tensor.Dense, dIn []*tensor.Dense) error
}

// BackwardAware is implemented by kernels that save forward state only for Backward. G.Grad
// calls EnableBackward when it builds the application's backward pass, before any run; until
// then Backward is never called and the kernel may skip saving.
type BackwardAware interface {
	EnableBackward()
}
