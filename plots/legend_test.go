package plots

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// textX is the x of the SVG text element that reads text, -1 when there is none.
func textX(svg, text string) float64 {
	m := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*>\s*` + regexp.QuoteMeta(text) + `</text>`).FindStringSubmatch(svg)
	if m == nil {
		return -1
	}
	x, _ := strconv.ParseFloat(m[1], 64)
	return x
}

// TestLegendBesideData: the legend is drawn right of the data area, not over the curves: its
// text starts past the x-axis's last tick label, which sits at the data area's right edge.
func TestLegendBesideData(t *testing.T) {
	f := New(Labels{Title: "t", X: "x", Y: "y"})
	if err := f.Line(Line{Label: "penalty on", X: []float64{0, 10}, Y: []float64{0, 10}}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b, 5, 3, "svg"); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	legend, lastTick := textX(svg, "penalty on"), textX(svg, "10")
	if legend < 0 || lastTick < 0 {
		t.Fatalf("no legend (%g) or last tick (%g) in the SVG", legend, lastTick)
	}
	if legend <= lastTick+5 {
		t.Errorf("the legend's text starts at x %g, inside the data area (its last tick at %g)", legend, lastTick)
	}
}

// TestSaveFormats: Save writes PNG, SVG and PDF by the file's extension and refuses another.
func TestSaveFormats(t *testing.T) {
	dir := t.TempDir()
	f := New(Labels{Title: "t"})
	if err := f.Line(Line{Label: "a", X: []float64{0, 1}, Y: []float64{1, 2}, Dashes: Dashes(1)}); err != nil {
		t.Fatal(err)
	}
	heads := map[string]string{"f.png": "\x89PNG", "f.svg": "<?xml", "f.pdf": "%PDF"}
	for name, head := range heads {
		path := filepath.Join(dir, name)
		if err := f.Save(path, 4, 3); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil || !strings.HasPrefix(string(data), head) {
			t.Errorf("%s starts %q, want %q (%v)", name, string(data[:min(len(data), 8)]), head, err)
		}
	}
	if err := f.Save(filepath.Join(dir, "f.txt"), 4, 3); err == nil || !strings.Contains(err.Error(), ".png, .svg or .pdf") {
		t.Errorf("f.txt: %v", err)
	}
}

// TestDashesDiffer: the first lines of a figure have different dash patterns, the first solid.
func TestDashesDiffer(t *testing.T) {
	if Dashes(0) != nil {
		t.Errorf("the first line is dashed: %v", Dashes(0))
	}
	seen := map[string]bool{}
	for i := range 5 {
		key := ""
		for _, d := range Dashes(i) {
			key += strconv.FormatFloat(d, 'g', -1, 64) + ","
		}
		if seen[key] {
			t.Errorf("line %d has the dashes of an earlier line: %v", i, Dashes(i))
		}
		seen[key] = true
	}
}
