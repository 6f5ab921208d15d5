package sysmem

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of /proc/<pid>/stat's CPU times: USER_HZ, 100 on every Linux the
// kernel's ABI promises it to user space.
const clockTick = time.Second / 100

// Proc is what /proc says of a process: the CPU time it has used, in all its threads, and its
// resident memory.
type Proc struct {
	CPU time.Duration
	RSS int64
}

// ReadProc reads process pid's CPU time (user and system, /proc/pid/stat) and resident memory
// (VmRSS, /proc/pid/status).
func ReadProc(pid int) (Proc, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Proc{}, err
	}
	cpu, err := parseStatCPU(stat)
	if err != nil {
		return Proc{}, fmt.Errorf("%s/stat: %v", dir, err)
	}
	status, err := os.ReadFile(dir + "/status")
	if err != nil {
		return Proc{}, err
	}
	rss, err := parseRSS(status)
	if err != nil {
		return Proc{}, fmt.Errorf("%s/status: %v", dir, err)
	}
	return Proc{CPU: cpu, RSS: rss}, nil
}

// parseStatCPU is utime + stime of a /proc/pid/stat line: the 14th and 15th fields, counted
// after the command name, which is in parentheses and may hold spaces or parentheses itself.
func parseStatCPU(stat []byte) (time.Duration, error) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, errors.New("no command name")
	}
	// After the name: state (field 3), ..., utime (14), stime (15).
	f := strings.Fields(string(stat[end+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("%d fields after the name, want 13 or more", len(f))
	}
	user, err1 := strconv.ParseUint(f[11], 10, 64)
	sys, err2 := strconv.ParseUint(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(user+sys) * clockTick, nil
}

// parseRSS is the VmRSS line of /proc/pid/status, in bytes (0 for a process without one, a
// kernel thread or a zombie).
func parseRSS(status []byte) (int64, error) {
	for line := range strings.SplitSeq(string(status), "\n") {
		rest, ok := strings.CutPrefix(line, "VmRSS:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("VmRSS %q: %v", strings.TrimSpace(rest), err)
		}
		return kb << 10, nil
	}
	return 0, nil
}
