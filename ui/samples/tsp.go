package samples

import (
	"fmt"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

func init() {
	Register(envs.TaskTSP, Drawer{
		Draw: func(s run.Sample, perm []int, look Look, w, h int) ([]string, string) {
			return drawTour(s, perm, look, w, h),
				look.St.Fg(draw.ColOrange).Render("▪") + " city " + look.Line.Render("─") + " " + look.Which + " tour"
		},
		// The gap of a minimised objective.
		Score: func(s run.Sample) []string {
			gap := 100 * (s.Objective/s.OptObjective - 1)
			return []string{fmt.Sprintf("tour %s vs opt %s (%+.1f%%)", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective), gap),
				fmt.Sprintf("tour %s (%+.1f%%)", draw.FmtNum(s.Objective), gap)}
		},
	})
}

// drawTour draws the cities and the closed tour perm through them.
func drawTour(s run.Sample, perm []int, look Look, w, h int) []string {
	cv, indent := square(w, h)
	if cv.H < 2 {
		return nil
	}
	edges := cv.Layer(look.Line)
	cities := cv.Layer(look.St.Fg(draw.ColOrange))
	pts := s.Instance.Points
	for k, i := range perm {
		j := perm[(k+1)%len(perm)]
		if i >= 0 && i < len(pts) && j >= 0 && j < len(pts) {
			cv.Line(edges, pts[i][0], pts[i][1], pts[j][0], pts[j][1])
		}
	}
	for _, q := range pts {
		cv.Mark(cities, q[0], q[1], '#')
	}
	return indentRows(cv.Rows(), indent)
}
