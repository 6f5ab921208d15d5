package draw

import (
	"charm.land/lipgloss/v2"
	"github.com/guptarohit/asciigraph"
)

// Colors are 256-colour palette indexes, shared by lipgloss styles and asciigraph series.
const (
	ColBlue    = 39
	ColOrange  = 214
	ColPink    = 170
	ColGreen   = 114
	ColYellow  = 221
	ColGray    = 244
	ColRed     = 203
	ColDimGray = 240
)

// SeriesColors are the colours of the ablation variants, in order.
var SeriesColors = []int{ColBlue, ColOrange, ColGreen, ColPink, ColYellow}

// Styles are the console's text styles. Without colour (NO_COLOR) they keep only attributes
// (bold, reverse), and every distinction the console draws also shows in its glyphs.
type Styles struct {
	Color bool

	Title, Dim, Bold, Sel, Key, OK, Warn, Err, Border, Accent lipgloss.Style
}

// NewStyles are the styles, in colour when color is set.
func NewStyles(color bool) Styles {
	s := Styles{Color: color}
	fg := func(c int) lipgloss.Style {
		st := lipgloss.NewStyle()
		if color {
			st = st.Foreground(lipgloss.ANSIColor(c))
		}
		return st
	}
	s.Title = fg(ColBlue).Bold(true)
	s.Dim = fg(ColGray)
	s.Bold = lipgloss.NewStyle().Bold(true)
	s.Sel = lipgloss.NewStyle().Reverse(true)
	s.Key = fg(ColYellow).Bold(true)
	s.OK = fg(ColGreen)
	s.Warn = fg(ColYellow)
	s.Err = fg(ColRed).Bold(true)
	s.Border = fg(ColDimGray)
	s.Accent = fg(ColBlue)
	return s
}

// Fg returns a style with foreground colour c, or a plain one without colour.
func (s Styles) Fg(c int) lipgloss.Style {
	if !s.Color {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(lipgloss.ANSIColor(c))
}

// GraphColor is c for asciigraph, or its default colour without colour.
func (s Styles) GraphColor(c int) asciigraph.AnsiColor {
	if !s.Color {
		return asciigraph.Default
	}
	return asciigraph.AnsiColor(c)
}
