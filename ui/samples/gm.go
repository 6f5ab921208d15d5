package samples

import (
	"fmt"

	"charm.land/lipgloss/v2"

	"spg-tui/envs"
	"spg-tui/envs/gm"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

func init() {
	Register(envs.TaskGM, Drawer{
		Draw: func(s run.Sample, perm []int, look Look, w, h int) ([]string, string) {
			return drawGraphs(s, perm, look, w, h),
				look.St.Fg(draw.ColBlue).Render("▪") + " G1  " + look.Line.Render("▪") + " G2 reordered by the " + look.Which + " correspondence"
		},
		// The fraction of G1's edges kept, and of the nodes sent to their planted partner.
		Score: func(s run.Sample) []string {
			out := fmt.Sprintf("edges %s vs opt %s", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective))
			if len(s.Instance.Planted) == len(s.Perm) && len(s.Perm) > 0 {
				out += fmt.Sprintf(" · recovery %.2f", gm.Recovery(s.Perm, s.Instance.Planted))
			}
			return []string{out, "edges " + draw.FmtNum(s.Objective)}
		},
	})
}

// drawGraphs draws G1's adjacency matrix and, beside it, G2's with rows and columns reordered
// by perm (entry (i, j) is G2's at (perm[i], perm[j])) as braille heatmaps: a correspondence
// preserving every edge draws them equal.
func drawGraphs(s run.Sample, perm []int, look Look, w, h int) []string {
	g1, g2 := s.Instance.G1, s.Instance.G2
	n := len(g1)
	if n == 0 || len(g2) != n || len(perm) != n {
		return nil
	}
	const gap = 2
	cw := min((w-gap)/2, 2*h)
	ch := cw / 2
	if ch < 1 {
		return nil
	}
	left := heatmap(cw, ch, n, func(i, j int) bool { return g1[i][j] != 0 }, look.St.Fg(draw.ColBlue))
	right := heatmap(cw, ch, n, func(i, j int) bool {
		a, b := perm[i], perm[j]
		return a >= 0 && a < n && b >= 0 && b < n && g2[a][b] != 0
	}, look.Line)
	rows := make([]string, len(left))
	for r := range left {
		rows[r] = left[r] + "  " + right[r]
	}
	return indentRows(rows, (w-2*cw-gap)/2)
}

// heatmap draws an n x n 0/1 matrix on cw x ch cells, row 0 at the top: each dot shows the
// entry under its centre.
func heatmap(cw, ch, n int, set func(i, j int) bool, style lipgloss.Style) []string {
	cv := draw.NewCanvas(cw, ch, 0, float64(n), 0, float64(n))
	l := cv.Layer(style)
	dw, dh := 2*cw, 4*ch
	for row := range dh {
		i := row * n / dh
		for col := range dw {
			if j := col * n / dw; set(i, j) {
				cv.Point(l, (float64(col)+0.5)*float64(n)/float64(dw), float64(n)-(float64(row)+0.5)*float64(n)/float64(dh))
			}
		}
	}
	return cv.Rows()
}
