package plots

import (
	"bytes"
	"image/png"
	"math"
	"testing"
)

// TestWritePNGSize: a figure is encoded at its size in inches, at gonum's 96 dots an inch.
func TestWritePNGSize(t *testing.T) {
	f := New(Labels{Title: "t", X: "x", Y: "y"})
	if err := f.Line(Line{Label: "a", X: []float64{0, 1, 2}, Y: []float64{1, 3, 2}}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.WritePNG(&b, 8, 4.5); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 768 || got.Y != 432 {
		t.Errorf("8x4.5 inches is %v pixels, want 768x432", got)
	}
}

// TestLogYDropsNonPositive: on a log axis a line leaves out the points it cannot show, and one
// with none left adds nothing (no error, no change to the axes).
func TestLogYDropsNonPositive(t *testing.T) {
	f := New(Labels{})
	f.LogY()
	if err := f.Line(Line{X: []float64{0, 1}, Y: []float64{0, -1}}); err != nil {
		t.Fatalf("a line of only non-positive values: %v", err)
	}
	if _, _, lo, hi := f.Range(); !math.IsInf(lo, 1) || !math.IsInf(hi, -1) {
		t.Fatalf("an empty line widened the y range to [%g, %g]", lo, hi)
	}
	if err := f.Line(Line{X: []float64{0, 1, 2}, Y: []float64{0, 2, 8}}); err != nil {
		t.Fatal(err)
	}
	if _, _, lo, hi := f.Range(); lo != 2 || hi != 8 {
		t.Errorf("y range [%g, %g], want [2, 8] without the zero", lo, hi)
	}
}

// TestWriteGridSize: a grid is cols×rows tiles, and an empty tile is allowed.
func TestWriteGridSize(t *testing.T) {
	f := New(Labels{Title: "p"})
	if err := f.Scatter(Scatter{X: []float64{1, 2}, Y: []float64{2, 1}, Radius: 1.5}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteGrid(&b, [][]*Figure{{f, f, f}, {f, nil, nil}}, 2, 3, 3); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 3*288 || got.Y != 2*288 {
		t.Errorf("grid is %v pixels, want 864x576", got)
	}
}
