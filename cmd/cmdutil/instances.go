package cmdutil

import (
	"bufio"
	"encoding/json"
	"io"
	"os"

	"spg-tui/envs"
	"spg-tui/run/stats"
)

// ReadInstances reads and validates the instance file at path, or standard input for "-".
func ReadInstances(path string, stdin io.Reader) (*envs.File, envs.Env, error) {
	r := stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		r = file
	}
	return envs.ReadFile(r)
}

// WriteSolutions writes one JSON line per solution and returns their mean objective.
func WriteSolutions(stdout io.Writer, sols []envs.Solution) (float64, error) {
	if err := envs.CheckObjectives(sols); err != nil {
		return 0, err
	}
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	objectives := make([]float64, len(sols))
	for i, s := range sols {
		if err := enc.Encode(s); err != nil {
			return 0, err
		}
		objectives[i] = s.Objective
	}
	return stats.Mean(objectives), w.Flush()
}
