package envs

import "math"

// CheckObjectives names the first solution whose objective is not a finite number, so that no
// JSON is written for a file that cannot be written whole. Validated instances (within
// MaxCoordinate) give finite objectives; this is the last check before writing.
func CheckObjectives(sols []Solution) error {
	for _, s := range sols {
		if math.IsInf(s.Objective, 0) || math.IsNaN(s.Objective) {
			return instanceError(s.Index, "objective %v is not a finite number (values this large overflow float64 arithmetic)", s.Objective)
		}
	}
	return nil
}
