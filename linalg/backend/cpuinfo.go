package backend

import (
	"bufio"
	"os"
	"strings"
)

// CPUModel returns the processor's model name as the kernel reports it ("AMD EPYC"), so that
// timings can say which CPU they came from; "" where /proc/cpuinfo cannot be read.
func CPUModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return ""
}
