package kernels

import (
	"regexp"
	"strings"
)

var (
	commentRE = regexp.MustCompile(`(?s)//[^\n]*|/\*.*?\*/`)
	defRE     = regexp.MustCompile(`(\w+)\s*\([^()]*\)\s*\{`)
	callRE    = regexp.MustCompile(`(\w+)\s*\(`)
)

// barriers returns the functions of src (kernels and device functions) that may reach
// __syncthreads(), directly or through the functions they call. The emulator runs the other
// kernels' threads as plain calls, much faster than as coroutines. Names are matched as
// words, so the answer errs only towards a barrier.
func barriers(src string) map[string]bool {
	src = commentRE.ReplaceAllString(src, "")
	bodies := map[string]string{}
	depth := make([]int, len(src)+1) // brace depth before each byte
	for i, c := range src {
		depth[i+1] = depth[i]
		switch c {
		case '{':
			depth[i+1]++
		case '}':
			depth[i+1]--
		}
	}
	for _, m := range defRE.FindAllStringSubmatchIndex(src, -1) {
		if depth[m[0]] != 0 {
			continue // a block inside a function, such as for (...) {
		}
		open := m[1] - 1
		end := open + 1
		for end < len(src) && depth[end+1] > 0 {
			end++
		}
		name := src[m[2]:m[3]]
		bodies[name] += src[open:min(end+1, len(src))]
	}
	reach := map[string]bool{}
	for name, body := range bodies {
		if strings.Contains(body, "__syncthreads") {
			reach[name] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for name, body := range bodies {
			if reach[name] {
				continue
			}
			for _, c := range callRE.FindAllStringSubmatch(body, -1) {
				if reach[c[1]] {
					reach[name], changed = true, true
					break
				}
			}
		}
	}
	return reach
}
