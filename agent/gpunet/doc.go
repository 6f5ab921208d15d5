// Package gpunet runs SPG's networks on a cuda.Device: each network a forward and backward
// pass over explicit device buffers (llm.c style), composed of the layer drivers of
// linalg/cuda/gpulayers and the device's matrix products, with the same numbers as the CPU's
// gorgonia graphs (agent/ops) within float32 rounding. Matching is SPG+Matching (the paper's
// MWM networks); its tests run it on the emulator (linalg/cuda/emu) against the CPU learner.
package gpunet
