package ui

// Screen sizes: the console is laid out for minWide×minTall and larger, and stays readable down
// to minWidth×minHeight; below that it asks for a larger terminal.
const (
	minWidth  = 80
	minHeight = 24
	minWide   = 110
	minTall   = 30
	// headerLines and footerLines frame the body.
	headerLines = 2
	footerLines = 1
)

// rect is a pane's size.
type rect struct{ w, h int }

// layout is the size of every pane for one screen size.
type layout struct {
	wide                                            bool
	reward, critic, scatter, sample, params, events rect
	body                                            rect
}

// computeLayout splits the screen. Wide: three columns — curves, Figure 2 and the sample, the
// panel and the events. Compact: the curves on the left, the panel above the scatter and the
// sample side by side on the right; no events pane.
func computeLayout(w, h int) layout {
	body := rect{w, h - headerLines - footerLines}
	l := layout{body: body, wide: w >= minWide && h >= minTall}
	if l.wide {
		c3 := 30
		c2 := (w - c3) * 2 / 5
		c1 := w - c3 - c2
		rh := body.h * 55 / 100
		l.reward, l.critic = rect{c1, rh}, rect{c1, body.h - rh}
		sh := body.h / 2
		l.scatter, l.sample = rect{c2, sh}, rect{c2, body.h - sh}
		ph := len(paramItems) + 3 // the items, a separator and the border
		l.params, l.events = rect{c3, ph}, rect{c3, body.h - ph}
		return l
	}
	left := w / 2
	right := w - left
	rh := body.h * 55 / 100
	l.reward, l.critic = rect{left, rh}, rect{left, body.h - rh}
	ph := min(len(paramItems)+2, body.h-8)
	half := right / 2
	l.params = rect{right, ph}
	l.scatter, l.sample = rect{half, body.h - ph}, rect{right - half, body.h - ph}
	return l
}
