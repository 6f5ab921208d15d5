package draw

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// FmtNum formats v in at most 7 characters (for |v| < 1e7): 3 significant digits, in
// scientific notation with a bare exponent ("2.65e-5") when small or large.
func FmtNum(v float64) string { return FmtSig(v, 3) }

// FmtSig is FmtNum with sig significant digits (at least 3).
func FmtSig(v float64, sig int) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "—"
	case v == 0:
		return "0"
	case a >= 1e-3 && a < 1e3:
		return strconv.FormatFloat(v, 'g', sig, 64)
	case a >= 1e3 && a < 1e5:
		return strconv.FormatFloat(v, 'f', max(0, sig-1-int(math.Log10(a))), 64)
	}
	m, e, _ := strings.Cut(strconv.FormatFloat(v, 'e', sig-1, 64), "e")
	m = strings.TrimRight(strings.TrimRight(m, "0"), ".")
	exp, _ := strconv.Atoi(e)
	return fmt.Sprintf("%se%d", m, exp)
}

// FmtInt formats n with thousands separators: 4812 -> "4,812".
func FmtInt(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// FmtDur formats an ETA: "42s", "19m42s", "3h05m"; "—" when unknown.
func FmtDur(d time.Duration) string {
	if d <= 0 {
		return "—"
	}
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm", h, m)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}
