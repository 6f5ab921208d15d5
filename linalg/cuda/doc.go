// Package cuda runs spg-tui's training steps on an NVIDIA GPU without cgo: the CUDA driver,
// cuBLAS and NVRTC are loaded at run time with purego, the kernels (package kernels, CUDA C)
// are compiled with NVRTC for the GPU found and cached by hash, and every driver call runs on
// one locked OS thread. Device is what a step needs; Open returns the CUDA one, or a one-line
// refusal where no driver loads. Nothing here is needed at build time: go build and the CPU
// path are unchanged.
package cuda
