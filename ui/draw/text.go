package draw

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// BlankLines is h lines of w spaces.
func BlankLines(w, h int) []string {
	lines := make([]string, max(h, 0))
	for i := range lines {
		lines[i] = strings.Repeat(" ", max(w, 0))
	}
	return lines
}

// FitLine truncates or pads the styled line s to exactly w columns.
func FitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if pad := w - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// FitLines makes lines exactly h lines of exactly w columns, dropping or adding lines at the end.
func FitLines(lines []string, w, h int) []string {
	out := make([]string, max(h, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = FitLine(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// Center pads s on both sides to w columns (truncating it when longer).
func Center(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw >= w {
		return FitLine(s, w)
	}
	left := (w - sw) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-sw-left)
}

// PadLeft right-aligns s in w columns.
func PadLeft(s string, w int) string {
	if pad := w - ansi.StringWidth(s); pad > 0 {
		return strings.Repeat(" ", pad) + s
	}
	return s
}

// Spread puts left and right at the two ends of a w-column line, truncating left if needed.
func Spread(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if rw >= w {
		return FitLine(right, w)
	}
	return FitLine(left, w-rw-1) + " " + right
}

// Frame draws a rounded box of w×h cells titled title around body, which is fitted inside.
func Frame(title string, body []string, w, h int, st Styles, focused bool) string {
	if w < 4 || h < 2 {
		return strings.Join(BlankLines(w, h), "\n")
	}
	bs := st.Border
	if focused {
		bs = st.Accent
	}
	inner := w - 2
	t := ""
	if title != "" {
		t = " " + ansi.Truncate(title, inner-3, "…") + " "
	}
	top := bs.Render("╭─") + st.Bold.Render(t) + bs.Render(strings.Repeat("─", max(inner-1-ansi.StringWidth(t), 0))+"╮")
	lines := make([]string, 0, h)
	lines = append(lines, top)
	side := bs.Render("│")
	for _, l := range FitLines(body, inner, h-2) {
		lines = append(lines, side+l+side)
	}
	lines = append(lines, bs.Render("╰"+strings.Repeat("─", inner)+"╯"))
	return strings.Join(lines, "\n")
}

// HJoin puts blocks side by side. Every block is a rectangle of styled lines of one width (as
// frame draws them), so the lines are simply concatenated; a shorter block is padded with
// spaces of its own width.
func HJoin(blocks ...string) string {
	cols := make([][]string, len(blocks))
	widths := make([]int, len(blocks))
	h := 0
	for i, b := range blocks {
		cols[i] = strings.Split(b, "\n")
		widths[i] = ansi.StringWidth(cols[i][0])
		h = max(h, len(cols[i]))
	}
	var sb strings.Builder
	for y := range h {
		if y > 0 {
			sb.WriteByte('\n')
		}
		for i, c := range cols {
			if y < len(c) {
				sb.WriteString(c[y])
			} else {
				sb.WriteString(strings.Repeat(" ", widths[i]))
			}
		}
	}
	return sb.String()
}

// VJoin stacks blocks.
func VJoin(blocks ...string) string { return strings.Join(blocks, "\n") }

// Bars are the eighth-block glyphs from empty to full: Bars[k] fills k eighths of a cell.
var Bars = []rune(" ▁▂▃▄▅▆▇█")
