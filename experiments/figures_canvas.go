package experiments

import (
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
)

// vgimgCanvas is a white PNG canvas of the given size.
func vgimgCanvas(w, h vg.Length) vgimg.PngCanvas {
	return vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
}
