package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"spg-tui/envs"
	"spg-tui/run"
)

// A partial file keeps the instances of a reference solve solved so far, so that a stopped or
// killed solve continues where it stopped. It is a log: a header line naming the set, then one
// line per solved instance, appended (one write each) as soon as the instance is solved, so a
// SIGKILL loses only the instances in flight and never touches a line already written. Each line
// carries a checksum over the header and itself: the solutions cannot be re-derived cheaply
// (Held-Karp), so they are trusted only through it; their objectives are not saved but derived
// again from the instances.

// partialHeader is a partial file's first line: the set and solvers its lines belong to.
type partialHeader struct {
	Task            envs.Task `json:"task"`
	N               int       `json:"n"`
	Seed            uint64    `json:"seed"`
	Size            int       `json:"size"`
	InstancesSHA256 string    `json:"instances_sha256"`
	Solvers         []string  `json:"solvers"`
	SolverVersion   int       `json:"solver_version"`
}

// partialLine is one solved instance: its solutions in the order of the solvers.
type partialLine struct {
	Index    int     `json:"index"`
	Perms    [][]int `json:"perms"`
	Checksum string  `json:"checksum,omitempty"`
}

// partialPath is where the instances solved so far of the references at path are kept.
func partialPath(path string) string {
	return strings.TrimSuffix(path, ".json") + ".partial.json"
}

// header is the first line of s's partial file, for the instances hashing to hash.
func (s *referenceSolve) header(hash string) []byte {
	data, err := json.Marshal(partialHeader{Task: s.env.Task(), N: s.env.N(), Seed: s.seed, Size: len(s.insts),
		InstancesSHA256: hash, Solvers: s.solvers, SolverVersion: envs.SolverVersion})
	if err != nil {
		panic(err) // plain numbers and strings
	}
	return data
}

// lineChecksum binds a line (without its checksum) to its file's header.
func lineChecksum(header []byte, l partialLine) string {
	l.Checksum = ""
	data, err := json.Marshal(l)
	if err != nil {
		panic(err) // plain numbers
	}
	h := sha256.New()
	h.Write(header)
	h.Write([]byte{'\n'})
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// maxPartialBytes bounds the partial file of s: every solution written compactly, twice over
// (two runs may append the same instances to a shared file), with room to spare.
func (s *referenceSolve) maxPartialBytes() int64 {
	return 2*int64(len(s.insts))*(int64(len(s.solvers))*(int64(s.env.N())*12+16)+128) + 1<<20
}

// restore reads the partial file at path into s, which has solved nothing yet, for the
// instances hashing to hash, and returns how many instances it held. The file is checked
// whole first: its header must be s's, and every line complete, with its checksum, an index in
// range and a permutation per solver. Nothing is taken from a file that fails; an instance
// listed twice (two runs solving the same set) is taken once.
func (s *referenceSolve) restore(path, hash string) (int, error) {
	data, err := run.ReadFileBounded(path, s.maxPartialBytes())
	if err != nil {
		return 0, err
	}
	header := s.header(hash)
	first, rest, ok := bytes.Cut(data, []byte{'\n'})
	if !ok || !bytes.Equal(first, header) {
		return 0, errors.New("its header is not this set's with this version's solvers")
	}
	if len(rest) > 0 && rest[len(rest)-1] != '\n' {
		return 0, errors.New("its last line is cut short")
	}
	var raws [][]byte
	if len(rest) > 0 {
		raws = bytes.Split(bytes.TrimSuffix(rest, []byte{'\n'}), []byte{'\n'})
	}
	var lines []partialLine
	seen := make([]bool, len(s.insts))
	for k, raw := range raws {
		var l partialLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return 0, fmt.Errorf("line %d: %v", k+2, err)
		}
		if l.Checksum != lineChecksum(header, l) {
			return 0, fmt.Errorf("line %d: its checksum does not match", k+2)
		}
		if err := s.checkLine(l); err != nil {
			return 0, fmt.Errorf("line %d: %v", k+2, err)
		}
		if !seen[l.Index] {
			seen[l.Index] = true
			lines = append(lines, l)
		}
	}
	for _, l := range lines {
		i := l.Index
		for k, perm := range l.Perms {
			s.sols[k][i] = envs.Solution{Index: i, Perm: perm, Objective: s.env.Objective(s.insts[i], perm)}
		}
		s.solved[i] = true
	}
	return len(lines), nil
}

// checkLine verifies what a line's checksum cannot: that it fits s's set.
func (s *referenceSolve) checkLine(l partialLine) error {
	if l.Index < 0 || l.Index >= len(s.insts) {
		return fmt.Errorf("instance %d is out of range", l.Index)
	}
	if len(l.Perms) != len(s.solvers) {
		return fmt.Errorf("instance %d: %d solutions for %d solvers", l.Index, len(l.Perms), len(s.solvers))
	}
	for _, perm := range l.Perms {
		if !isPermutation(perm, s.env.N()) {
			return fmt.Errorf("instance %d: a solution is not a permutation of %d", l.Index, s.env.N())
		}
	}
	return nil
}

// isPermutation reports whether perm is a permutation of 0..n-1.
func isPermutation(perm []int, n int) bool {
	if len(perm) != n {
		return false
	}
	seen := make([]bool, n)
	for _, v := range perm {
		if v < 0 || v >= n || seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// partialWriter appends solved instances to a partial file, one write per line.
type partialWriter struct {
	mu     sync.Mutex
	f      *os.File
	header []byte
}

// openPartial opens s's partial file at path for appending: as it is when it holds kept
// instances (fresh is false), else replaced atomically by one holding only the header.
func (s *referenceSolve) openPartial(path, hash string, fresh bool) (*partialWriter, error) {
	header := s.header(hash)
	if fresh {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		err := run.WriteAtomic(path, func(w io.Writer) error {
			_, err := w.Write(append(header, '\n'))
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	return &partialWriter{f: f, header: header}, nil
}

// keep appends instance i's solutions, as one write so that a kill cannot split the line.
func (w *partialWriter) keep(i int, sols []envs.Solution) error {
	l := partialLine{Index: i, Perms: make([][]int, len(sols))}
	for k, sol := range sols {
		l.Perms[k] = sol.Perm
	}
	l.Checksum = lineChecksum(w.header, l)
	data, err := json.Marshal(l)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err = w.f.Write(append(data, '\n'))
	return err
}

// Close closes the file.
func (w *partialWriter) Close() error { return w.f.Close() }
