package ui

import (
	"fmt"
	"path/filepath"
	"slices"

	tea "charm.land/bubbletea/v2"

	"spg-tui/ui/export"
)

// compareExportKey is the compare view's e: the overlays and every run's curves.
func (m *model) compareExportKey() binding {
	return bind([]string{"e"}, "e", "export overlays (PNG, SVG) and curves (CSV)", colViews, m.compareExport)
}

// compareExport writes the compare view's overlays of the runs it draws (PNG and SVG, against
// its x-axis) and one CSV of every run's curves into exports/compare-<date>-<time>/ in the
// working directory (the view writes nothing into the runs it shows).
func (m *model) compareExport() tea.Cmd {
	v := m.compare
	rows := v.rows()
	if len(rows) == 0 {
		m.fail("export: no run matches the filter")
		return nil
	}
	drawn, _ := v.drawn(rows)
	o := export.Overlay{
		Dir:       filepath.Join(exportsDir, fmt.Sprintf("compare-%s", m.ablation.now().Format("20060102-150405"))),
		WallX:     v.wallX,
		Smoothing: m.ctx.smoothing, MetricLabel: metricLabel(v.selected().metric().Name),
	}
	for i, r := range v.runs {
		d := r.data
		_, color := v.glyph(r)
		o.Runs = append(o.Runs, export.OverlayRun{
			Label: r.label, Dir: r.eng.Info().Dir, Drawn: slices.Contains(drawn, r), Color: color, Style: i,
			MetricName: d.eval.name, TrainStep: slices.Clone(d.train.step), TrainWall: slices.Clone(d.train.wall),
			Reward:   slices.Clone(d.train.get("reward_mean")),
			EvalStep: slices.Clone(d.eval.step), EvalWall: slices.Clone(d.eval.wall), Metric: slices.Clone(d.eval.metric),
		})
	}
	return m.exporting(o.Dir, func() ([]string, error) { return export.WriteOverlay(o) })
}
