package cuda

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/ebitengine/purego"
)

// nvmlNames are NVML's sonames: the driver installs it beside libcuda.
var nvmlNames = []string{"libnvidia-ml.so.1", "libnvidia-ml.so"}

// nvmlAPI is the part of NVML the console's system line reads (nvml.h; the _v2 entry points
// are those of every driver since CUDA 5.5).
type nvmlAPI struct {
	init        func() int32
	handleByIdx func(index uint32, dev *uintptr) int32
	utilization func(dev uintptr, u *nvmlUtilization) int32
	memoryInfo  func(dev uintptr, m *nvmlMemory) int32
	errorString func(r int32) string
	deviceCount func(n *uint32) int32
	shutdown    func() int32
}

// nvmlUtilization is nvmlUtilization_t: percent of the last sample period the GPU computed and
// its memory was read or written.
type nvmlUtilization struct{ GPU, Memory uint32 }

// nvmlMemory is nvmlMemory_t, in bytes.
type nvmlMemory struct{ Total, Free, Used uint64 }

// GPUUse is one reading of a GPU: its use in percent of the last sample period, and its
// memory in use and in all, in bytes.
type GPUUse struct {
	Util            int
	MemUsed, MemAll uint64
}

// NVML reads one GPU's use and memory through the driver's management library, loaded at run
// time as the driver is (openLib: SPG_TUI_CUDA_LIB, the loader's path, the usual places). It is
// safe for use by one goroutine at a time.
type NVML struct {
	api   *nvmlAPI
	dev   uintptr
	index int
	mu    sync.Mutex
}

// OpenNVML loads NVML and opens the GPU the process would train on: the first of
// CUDA_VISIBLE_DEVICES when it is a number, else GPU 0. Its error wraps ErrNoDriver where the
// library is not found and ErrNoGPU where it finds no GPU (Absent reports both).
func OpenNVML() (*NVML, error) {
	h, _, err := openLib("NVML", nvmlNames)
	if errors.Is(err, errNotFound) {
		return nil, fmt.Errorf("nvml: %w: %v", ErrNoDriver, err)
	}
	if err != nil {
		return nil, fmt.Errorf("nvml: %v", err)
	}
	api, err := loadNVML(h)
	if err != nil {
		return nil, fmt.Errorf("nvml: %v", err)
	}
	if r := api.init(); r != 0 {
		return nil, fmt.Errorf("nvml: %w: nvmlInit: %s", ErrNoGPU, api.describe(r))
	}
	n := &NVML{api: api, index: visibleIndex(os.Getenv("CUDA_VISIBLE_DEVICES"))}
	var count uint32
	if r := api.deviceCount(&count); r != 0 || int(count) <= n.index {
		api.shutdown()
		return nil, fmt.Errorf("nvml: %w: GPU %d asked, %d found", ErrNoGPU, n.index, count)
	}
	if r := api.handleByIdx(uint32(n.index), &n.dev); r != 0 {
		api.shutdown()
		return nil, fmt.Errorf("nvml: GPU %d: %s", n.index, api.describe(r))
	}
	return n, nil
}

// visibleIndex is the NVML index of the GPU a CUDA process sees first: the first entry of
// CUDA_VISIBLE_DEVICES when it is a number, else 0 (a UUID or nothing).
func visibleIndex(env string) int {
	first, _, _ := strings.Cut(env, ",")
	if i, err := strconv.Atoi(strings.TrimSpace(first)); err == nil && i >= 0 {
		return i
	}
	return 0
}

// Read reads the GPU's use and memory now.
func (n *NVML) Read() (GPUUse, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var u nvmlUtilization
	var m nvmlMemory
	if r := n.api.utilization(n.dev, &u); r != 0 {
		return GPUUse{}, fmt.Errorf("nvml: GPU %d use: %s", n.index, n.api.describe(r))
	}
	if r := n.api.memoryInfo(n.dev, &m); r != 0 {
		return GPUUse{}, fmt.Errorf("nvml: GPU %d memory: %s", n.index, n.api.describe(r))
	}
	return GPUUse{Util: int(u.GPU), MemUsed: m.Used, MemAll: m.Total}, nil
}

// Close shuts NVML down.
func (n *NVML) Close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.api.shutdown()
}

// loadNVML binds NVML's functions from the library handle h.
func loadNVML(h uintptr) (a *nvmlAPI, err error) {
	defer func() {
		// RegisterLibFunc panics on a missing symbol: a foreign or very old library.
		if r := recover(); r != nil {
			a, err = nil, fmt.Errorf("libnvidia-ml lacks a function spg-tui needs: %v", r)
		}
	}()
	a = &nvmlAPI{}
	reg := func(fptr any, name string) { purego.RegisterLibFunc(fptr, h, name) }
	reg(&a.init, "nvmlInit_v2")
	reg(&a.deviceCount, "nvmlDeviceGetCount_v2")
	reg(&a.handleByIdx, "nvmlDeviceGetHandleByIndex_v2")
	reg(&a.utilization, "nvmlDeviceGetUtilizationRates")
	reg(&a.memoryInfo, "nvmlDeviceGetMemoryInfo")
	reg(&a.errorString, "nvmlErrorString")
	reg(&a.shutdown, "nvmlShutdown")
	return a, nil
}

// describe is NVML's text for the return code r.
func (a *nvmlAPI) describe(r int32) string {
	return fmt.Sprintf("%s (nvmlReturn %d)", a.errorString(r), r)
}
