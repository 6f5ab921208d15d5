package plots

import (
	"strings"
	"testing"
)

// TestStepTicks: the figures' step axis is labelled in whole steps (3 to 240 read "25.00").
func TestStepTicks(t *testing.T) {
	for _, r := range [][2]float64{{3, 240}, {0, 250}, {12, 250}, {0, 3}} {
		for _, tk := range (stepTicks{}).Ticks(r[0], r[1]) {
			if strings.Contains(tk.Label, ".") {
				t.Errorf("range %v: tick %g labelled %q", r, tk.Value, tk.Label)
			}
		}
	}
}
