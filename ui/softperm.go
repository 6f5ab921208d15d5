package ui

import (
	"fmt"
	"math"
	"strings"

	"spg-tui/run"
	"spg-tui/ui/draw"
)

// mPoint is the soft-permutation summary of one validation evaluation: each sample's mean row
// entropy and Birkhoff number, by sample index.
type mPoint struct {
	step              int
	entropy, birkhoff []float64
}

// addMHistory records the entropy and Birkhoff number of a validation evaluation's samples;
// records written before the trainer sent them carry neither and add nothing.
func (d *runData) addMHistory(step int, samples []run.Sample) {
	pt := mPoint{step: step}
	for _, s := range samples {
		if s.Birkhoff == 0 {
			return
		}
		pt.entropy = append(pt.entropy, s.Entropy)
		pt.birkhoff = append(pt.birkhoff, s.Birkhoff)
	}
	if len(pt.birkhoff) > 0 {
		d.mHist = append(d.mHist, pt)
	}
}

// noM says why a sample has no M to draw: a view reads metrics.jsonl, which does not keep it;
// a live console keeps it for the latest validations only (keptM).
func noM(readOnly bool) string {
	if readOnly {
		return "M is shown live only (not kept in metrics.jsonl)"
	}
	return "M is kept for the latest validations only"
}

// mShades are the heatmap's glyphs for the entries of M, from 0 to 1 (see mShade).
var mShades = []rune("·░▒▓█")

// mShade is the glyph of an entry of M: "·" below 0.05, so that an empty cell still shows the
// grid, then a quarter per shade.
func mShade(v float64) rune {
	switch {
	case v < 0.05:
		return mShades[0]
	case v >= 0.75:
		return mShades[4]
	}
	return mShades[1+int(v/0.25)]
}

// matrixBody draws the shown sample's soft permutation M as a heatmap with the rounded P marked,
// then the evaluation's step and, as far as the height allows, M's Birkhoff number and entropy
// over the evaluations (with their latest values) and a legend.
func (p *samplePane) matrixBody(w, h int) []string {
	ev, step := p.ctx.shownVal()
	i := min(p.index, len(ev.Samples)-1)
	s := ev.Samples[i]
	n := len(s.Perm)
	st := p.ctx.st
	// The heatmap keeps a row per row of M where it can; the lines under it give way first.
	extra := min(max(h-n-1, 0), 3)
	hh := max(h-1-extra, 0)
	var lines []string
	if len(s.M) == n*n && n > 0 && hh > 0 {
		lines = mHeatmap(s.M, s.Perm, w, hh, st)
	} else if hh > 0 {
		lines = draw.BlankLines(w, hh)
		lines[hh/2] = draw.Center(noM(p.ctx.readOnly), w)
	}
	lines = draw.FitLines(lines, w, hh)
	lines = append(lines, fmt.Sprintf("%d/%d · M at step %d", i+1, len(ev.Samples), step))
	var ent, bk []float64
	for _, pt := range p.ctx.data.mHist {
		if i < len(pt.birkhoff) && pt.step <= step {
			ent, bk = append(ent, pt.entropy[i]), append(bk, pt.birkhoff[i])
		}
	}
	const lw, vw = 9, 11 // "birkhoff ", " 0.873 nats"
	history := func(label string, v []float64, hi float64, unit string, c int) string {
		last := ""
		if len(v) > 0 {
			last = fmt.Sprintf(" %.3f%s", v[len(v)-1], unit)
		}
		return label + st.Fg(c).Render(spark(v, 0, hi, w-lw-vw)) + last
	}
	under := []string{
		history("birkhoff ", bk, 1, "", draw.ColGreen),
		// The rows' entropy is in natural-log units, at most log N.
		history("entropy  ", ent, math.Log(float64(max(n, 2))), " nats", draw.ColBlue),
		st.Fg(draw.ColBlue).Render(string(mShades)) + " M 0→1  " + st.Fg(draw.ColGreen).Render("•") + " rounded P",
	}
	return append(lines, under[:extra]...)
}

// mHeatmap draws the n×n matrix m in at most w×h cells, two columns per entry when they fit;
// a larger matrix is pooled, each cell showing the largest entry of its block. A cell holding an
// entry of P, the permutation matrix of perm (column c holds row perm[c]), is followed by "•"
// when two columns wide, else drawn in green, or as "•" where M has little mass on it.
func mHeatmap(m []float32, perm []int, w, h int, st draw.Styles) []string {
	n := len(perm)
	cw := 1
	if 2*n <= w {
		cw = 2
	}
	rows, cols := min(n, h), min(n, w/cw)
	if rows == 0 || cols == 0 {
		return nil
	}
	inP := make([]bool, n*n)
	for c, r := range perm {
		if r >= 0 && r < n {
			inP[r*n+c] = true
		}
	}
	shade, mark := st.Fg(draw.ColBlue), st.Fg(draw.ColGreen)
	indent := strings.Repeat(" ", (w-cols*cw)/2)
	out := make([]string, rows)
	for R := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for C := range cols {
			v, marked := 0.0, false
			for r := R * n / rows; r < (R+1)*n/rows; r++ {
				for c := C * n / cols; c < (C+1)*n/cols; c++ {
					v = math.Max(v, float64(m[r*n+c]))
					marked = marked || inP[r*n+c]
				}
			}
			g := string(mShade(v))
			switch {
			case marked && cw == 2:
				b.WriteString(shade.Render(g) + mark.Render("•"))
			case marked && v < 0.25:
				b.WriteString(mark.Render("•"))
			case marked:
				b.WriteString(mark.Render(g))
			default:
				b.WriteString(shade.Render(strings.Repeat(g, cw)))
			}
		}
		out[R] = b.String()
	}
	return out
}

// spark draws the last w values of v as eighth-block bars between lo and hi.
func spark(v []float64, lo, hi float64, w int) string {
	if w <= 0 {
		return ""
	}
	v = v[max(len(v)-w, 0):]
	var b strings.Builder
	for _, x := range v {
		frac := 0.0
		if hi > lo {
			frac = math.Min(math.Max((x-lo)/(hi-lo), 0), 1)
		}
		b.WriteRune(draw.Bars[1+int(math.Round(frac*7))])
	}
	return b.String()
}
