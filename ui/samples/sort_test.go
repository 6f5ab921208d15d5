package samples

import "testing"

func TestBarRows(t *testing.T) {
	rows := barRows([]float64{0, 4, 8}, 0, 8, 2, 2, 100)
	// 16 eighths per column: 0 -> the 1-eighth floor, 4 -> 8 eighths, 8 -> 16.
	want := []string{"  " + "  " + "█ ", "▁ █ █ "}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
	if cut := barRows([]float64{1, 2, 3}, 0, 3, 1, 1, 2); len([]rune(cut[0])) != 2 {
		t.Errorf("bars not cut at the width: %q", cut[0])
	}
}
