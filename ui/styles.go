package ui

import (
	"charm.land/lipgloss/v2"
	"github.com/guptarohit/asciigraph"
)

// Colors are 256-colour palette indexes, shared by lipgloss styles and asciigraph series.
const (
	colBlue    = 39
	colOrange  = 214
	colPink    = 170
	colGreen   = 114
	colYellow  = 221
	colGray    = 244
	colRed     = 203
	colDimGray = 240
)

// seriesColors are the colours of the ablation variants, in order.
var seriesColors = []int{colBlue, colOrange, colGreen, colPink, colYellow}

// styles are the console's text styles. Without colour (NO_COLOR) they keep only attributes
// (bold, reverse), and every distinction the console draws also shows in its glyphs.
type styles struct {
	color bool

	title, dim, bold, sel, key, ok, warn, err, border, accent lipgloss.Style
}

func newStyles(color bool) styles {
	s := styles{color: color}
	fg := func(c int) lipgloss.Style {
		st := lipgloss.NewStyle()
		if color {
			st = st.Foreground(lipgloss.ANSIColor(c))
		}
		return st
	}
	s.title = fg(colBlue).Bold(true)
	s.dim = fg(colGray)
	s.bold = lipgloss.NewStyle().Bold(true)
	s.sel = lipgloss.NewStyle().Reverse(true)
	s.key = fg(colYellow).Bold(true)
	s.ok = fg(colGreen)
	s.warn = fg(colYellow)
	s.err = fg(colRed).Bold(true)
	s.border = fg(colDimGray)
	s.accent = fg(colBlue)
	return s
}

// fg returns a style with foreground colour c, or a plain one without colour.
func (s styles) fg(c int) lipgloss.Style {
	if !s.color {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(lipgloss.ANSIColor(c))
}

// graphColor is c for asciigraph, or its default colour without colour.
func (s styles) graphColor(c int) asciigraph.AnsiColor {
	if !s.color {
		return asciigraph.Default
	}
	return asciigraph.AnsiColor(c)
}
