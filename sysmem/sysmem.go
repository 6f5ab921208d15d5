// Package sysmem says how much memory the process may use, so that sizes that cannot fit are
// refused with a message before anything is allocated, instead of ending in an out-of-memory
// kill or a Go runtime trace.
package sysmem

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Limit is the memory the process may use in bytes: the machine's physical memory, or the
// cgroup's limit (memory.max) when that is smaller. It is 0 when neither can be read; then
// nothing is refused.
func Limit() int64 {
	var info unix.Sysinfo_t
	total := int64(0)
	if unix.Sysinfo(&info) == nil {
		total = int64(info.Totalram) * int64(info.Unit)
	}
	if data, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil && v > 0 && (total == 0 || v < total) {
			total = v
		}
	}
	return total
}

// Check refuses need bytes of what when they exceed Limit, with one line naming both.
func Check(what string, need int64) error {
	limit := Limit()
	if limit > 0 && (need < 0 || need > limit) {
		return fmt.Errorf("%s needs about %s of memory, more than the %s this machine allows", what, Bytes(need), Bytes(limit))
	}
	return nil
}

// Bytes writes a size for a person: 1.5 GiB, 80 MiB, 512 B. A negative size (an estimate that
// overflowed int64) reads as "more than 8 EiB".
func Bytes(b int64) string {
	if b < 0 {
		return "more than 8 EiB"
	}
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit && exp < 5; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTPE"[exp])
}
