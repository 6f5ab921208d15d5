package plots

import (
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// WriteGrid encodes figs as one PNG, a grid of rows×cols tiles of tile×tile inches with their
// axes aligned; a nil figure leaves its tile empty.
func WriteGrid(out io.Writer, figs [][]*Figure, rows, cols int, tile float64) error {
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
		for c := range plots[r] {
			if r < len(figs) && c < len(figs[r]) && figs[r][c] != nil {
				plots[r][c] = figs[r][c].p
			}
		}
	}
	width, height := vg.Length(cols)*vg.Length(tile)*vg.Inch, vg.Length(rows)*vg.Length(tile)*vg.Inch
	img := vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 2}
	canvases := plot.Align(plots, tiles, draw.New(img))
	for r := range plots {
		for c := range plots[r] {
			if plots[r][c] != nil {
				plots[r][c].Draw(canvases[r][c])
			}
		}
	}
	_, err := img.WriteTo(out)
	return err
}
