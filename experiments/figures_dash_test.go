package experiments

import (
	"bytes"
	"image/png"
	"testing"
)

// TestBandFigureLinesShowUnderEachOther: two arms whose means run on the same curve (penalty on
// and off in figure3a) both show in the figure: the second is dashed, so the first shows
// between its dashes instead of being hidden under it.
func TestBandFigureLinesShowUnderEachOther(t *testing.T) {
	var curve []curvePoint
	for s := 0; s <= 1000; s += 50 {
		m := 0.7 + 0.25*float64(s)/1000
		curve = append(curve, curvePoint{Step: s, N: 3, Mean: m, Lo68: m, Hi68: m, Lo95: m, Hi95: m})
	}
	w := &reportWriter{}
	w.bandFigure("f.png", "t", "y", []series{{Label: "penalty on", Curve: curve}, {Label: "penalty off", Curve: curve}}, false)
	var b bytes.Buffer
	if err := w.figures[0].write(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	// The first arm's colour, in the left half of the figure (the legend is on the right).
	first, shown := palette[0], 0
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X/2; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == first.R && uint8(g>>8) == first.G && uint8(bl>>8) == first.B {
				shown++
			}
		}
	}
	if shown < 20 {
		t.Errorf("the first arm's line shows in %d pixels: hidden under the second", shown)
	}
}
