package samples

import (
	"fmt"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

func init() {
	Register(envs.TaskMWM, Drawer{
		Draw: func(s run.Sample, perm []int, look Look, w, h int) ([]string, string) {
			st := look.St
			return drawMatching(s, perm, look, w, h),
				st.Fg(draw.ColBlue).Render("+") + " a " + st.Fg(draw.ColOrange).Render("▪") + " b " + look.Line.Render("─") + " " + look.Which
		},
		// The optimality ratio of the matched weight.
		Score: func(s run.Sample) []string {
			if s.OptObjective > 0 {
				ratio := s.Objective / s.OptObjective
				return []string{fmt.Sprintf("%s vs opt %s = %.3f", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective), ratio), fmt.Sprintf("ratio %.3f", ratio)}
			}
			return []string{fmt.Sprintf("weight %s vs opt %s", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective))}
		},
	})
}

// drawMatching draws the points of A and B and the matched pairs as lines.
func drawMatching(s run.Sample, perm []int, look Look, w, h int) []string {
	cv, indent := square(w, h)
	if cv.H < 2 {
		return nil
	}
	st := look.St
	edges := cv.Layer(look.Line)
	as := cv.Layer(st.Fg(draw.ColBlue))
	bs := cv.Layer(st.Fg(draw.ColOrange))
	a, b := s.Instance.A, s.Instance.B
	for i, j := range perm {
		if i < len(a) && j >= 0 && j < len(b) {
			cv.Line(edges, a[i][0], a[i][1], b[j][0], b[j][1])
		}
	}
	for _, q := range a {
		cv.Mark(as, q[0], q[1], '+')
	}
	for _, q := range b {
		cv.Mark(bs, q[0], q[1], '#')
	}
	return indentRows(cv.Rows(), indent)
}
