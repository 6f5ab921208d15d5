package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// blankLines is h lines of w spaces.
func blankLines(w, h int) []string {
	lines := make([]string, max(h, 0))
	for i := range lines {
		lines[i] = strings.Repeat(" ", max(w, 0))
	}
	return lines
}

// fitLine truncates or pads the styled line s to exactly w columns.
func fitLine(s string, w int) string {
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

// fitLines makes lines exactly h lines of exactly w columns, dropping or adding lines at the end.
func fitLines(lines []string, w, h int) []string {
	out := make([]string, max(h, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = fitLine(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return out
}

// fitBlock is fitLines over the lines of s, joined.
func fitBlock(s string, w, h int) string {
	return strings.Join(fitLines(strings.Split(s, "\n"), w, h), "\n")
}

// center pads s on both sides to w columns (truncating it when longer).
func center(s string, w int) string {
	sw := ansi.StringWidth(s)
	if sw >= w {
		return fitLine(s, w)
	}
	left := (w - sw) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-sw-left)
}

// padLeft right-aligns s in w columns.
func padLeft(s string, w int) string {
	if pad := w - ansi.StringWidth(s); pad > 0 {
		return strings.Repeat(" ", pad) + s
	}
	return s
}

// spread puts left and right at the two ends of a w-column line, truncating left if needed.
func spread(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if rw >= w {
		return fitLine(right, w)
	}
	return fitLine(left, w-rw-1) + " " + right
}

// frame draws a rounded box of w×h cells titled title around body, which is fitted inside.
func frame(title string, body []string, w, h int, st styles, focused bool) string {
	if w < 4 || h < 2 {
		return strings.Join(blankLines(w, h), "\n")
	}
	bs := st.border
	if focused {
		bs = st.accent
	}
	inner := w - 2
	t := ""
	if title != "" {
		t = " " + ansi.Truncate(title, inner-3, "…") + " "
	}
	top := bs.Render("╭─") + st.bold.Render(t) + bs.Render(strings.Repeat("─", max(inner-1-ansi.StringWidth(t), 0))+"╮")
	lines := make([]string, 0, h)
	lines = append(lines, top)
	side := bs.Render("│")
	for _, l := range fitLines(body, inner, h-2) {
		lines = append(lines, side+l+side)
	}
	lines = append(lines, bs.Render("╰"+strings.Repeat("─", inner)+"╯"))
	return strings.Join(lines, "\n")
}

// hjoin puts blocks side by side. Every block is a rectangle of styled lines of one width (as
// frame draws them), so the lines are simply concatenated; a shorter block is padded with
// spaces of its own width.
func hjoin(blocks ...string) string {
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

// vjoin stacks blocks.
func vjoin(blocks ...string) string { return strings.Join(blocks, "\n") }
