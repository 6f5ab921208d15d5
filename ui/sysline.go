package ui

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"spg-tui/linalg/cuda"
	"spg-tui/sysmem"
	"spg-tui/ui/draw"
)

// How often the system figures are taken: /proc every second on the console's tick; the run
// directory walked and the GPU read off it, one job at a time.
const (
	procEvery = time.Second
	dirEvery  = 5 * time.Second
	// maxDirEntries bounds a walk of the run directory (a size past it reads "≥").
	maxDirEntries = 200_000
)

// sysFigures are the header's system figures: the CPU use (100 is one core) and resident
// memory of the process that trains the run, the run directory's size, and the GPU's use and
// memory where NVML reads one.
type sysFigures struct {
	cpu            float64
	rss            int64
	hasProc        bool
	dir            int64
	hasDir, dirAll bool
	gpu            cuda.GPUUse
	hasGPU         bool
}

// gpuMeter reads a GPU (cuda.NVML).
type gpuMeter interface {
	Read() (cuda.GPUUse, error)
}

// sysSampler takes the system figures for the console: it never blocks the console's
// goroutine on the disk or the GPU.
type sysSampler struct {
	readProc func(pid int) (sysmem.Proc, error)
	dirSize  func(dir string, max int) (int64, bool, error)
	openGPU  func() (gpuMeter, error)

	pid           int // whose /proc the last sample read
	prev          sysmem.Proc
	prevAt, dirAt time.Time
	proc          sysFigures // the /proc part, on the console's goroutine

	mu      sync.Mutex // guards the rest, written by the background job
	busy    bool
	gpuOnce sync.Once
	gpu     gpuMeter
	off     sysFigures // the directory and GPU parts
}

// newSysSampler reads /proc, walks directories and opens NVML for real.
func newSysSampler() *sysSampler {
	return &sysSampler{readProc: sysmem.ReadProc, dirSize: sysmem.DirSize, openGPU: func() (gpuMeter, error) {
		n, err := cuda.OpenNVML()
		if err != nil {
			return nil, err
		}
		return n, nil
	}}
}

// sample refreshes the figures of the process pid (0: none, a view of a run nobody trains)
// and the run directory dir at now, and returns them.
func (s *sysSampler) sample(now time.Time, pid int, dir string) sysFigures {
	if pid != s.pid {
		s.pid, s.prevAt, s.proc = pid, time.Time{}, sysFigures{}
	}
	if pid > 0 && now.Sub(s.prevAt) >= procEvery {
		if p, err := s.readProc(pid); err == nil {
			if !s.prevAt.IsZero() {
				if dt := now.Sub(s.prevAt); dt > 0 {
					s.proc.cpu, s.proc.hasProc = 100*float64(p.CPU-s.prev.CPU)/float64(dt), true
				}
			}
			s.proc.rss, s.prev, s.prevAt = p.RSS, p, now
		} else {
			s.proc = sysFigures{}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.busy && now.Sub(s.dirAt) >= dirEvery {
		s.busy, s.dirAt = true, now
		go s.background(dir)
	}
	f := s.off
	f.cpu, f.rss, f.hasProc = s.proc.cpu, s.proc.rss, s.proc.hasProc
	return f
}

// background walks dir and reads the GPU (opening NVML the first time), off the console's
// goroutine.
func (s *sysSampler) background(dir string) {
	s.gpuOnce.Do(func() {
		if g, err := s.openGPU(); err == nil {
			s.gpu = g
		}
	})
	var f sysFigures
	if dir != "" {
		if size, all, err := s.dirSize(dir, maxDirEntries); err == nil {
			f.dir, f.hasDir, f.dirAll = size, true, all
		}
	}
	if s.gpu != nil {
		if u, err := s.gpu.Read(); err == nil {
			f.gpu, f.hasGPU = u, true
		}
	}
	s.mu.Lock()
	s.off, s.busy = f, false
	s.mu.Unlock()
}

// text is the figures in the header, long or short: "cpu 183% · rss 412.0 MiB · run dir
// 28.0 MiB · gpu 45% 3.2/80.0 GiB" or "cpu 183% 412M · dir 28M · gpu 45% 3.2G"; "" when there
// are none.
func (f sysFigures) text(short bool) string {
	var parts []string
	size := sysmem.Bytes
	if short {
		size = shortBytes
	}
	if f.hasProc {
		if short {
			parts = append(parts, fmt.Sprintf("cpu %.0f%% %s", f.cpu, size(f.rss)))
		} else {
			parts = append(parts, fmt.Sprintf("cpu %.0f%%", f.cpu), "rss "+size(f.rss))
		}
	}
	if f.hasDir {
		d := size(f.dir)
		if !f.dirAll {
			d = "≥" + d
		}
		if short {
			parts = append(parts, "dir "+d)
		} else {
			parts = append(parts, "run dir "+d)
		}
	}
	if f.hasGPU {
		g := f.gpu
		if short {
			parts = append(parts, fmt.Sprintf("gpu %d%% %s", g.Util, shortBytes(int64(g.MemUsed))))
		} else {
			parts = append(parts, fmt.Sprintf("gpu %d%% %s/%s", g.Util, strings.TrimSuffix(sysmem.Bytes(int64(g.MemUsed)), " GiB"), sysmem.Bytes(int64(g.MemAll))))
		}
	}
	return strings.Join(parts, " · ")
}

// shortBytes is a size in at most 5 characters: 412M, 3.2G, 28K.
func shortBytes(b int64) string {
	s := sysmem.Bytes(b)
	num, unit, ok := strings.Cut(s, " ")
	if !ok || unit == "B" {
		return num + "B"
	}
	if strings.HasSuffix(num, ".0") || len(num) > 3 {
		num = strings.TrimSuffix(strings.Split(num, ".")[0], ".")
	}
	return num + unit[:1]
}

// sysLine is the figures for the right end of the header's second line of w columns, beside
// left: the long form where both fit, else the short one where it fits in 3/5 of the line, else
// "".
func sysLine(f sysFigures, left string, w int, st draw.Styles) string {
	if t := f.text(false); t != "" && ansi.StringWidth(left)+1+len([]rune(t)) <= w {
		return st.Dim.Render(t)
	}
	if t := f.text(true); t != "" && len([]rune(t)) <= w*3/5 {
		return st.Dim.Render(t)
	}
	return ""
}
