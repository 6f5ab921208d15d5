package ui

import (
	"fmt"
	"strings"
)

// chartSet is a set of the main view's charts: those drawn on a log scale.
type chartSet uint8

// The charts. The critic's is the critic loss, or a critic-free model's baseline.
const (
	chartCritic chartSet = 1 << iota
	chartVal
	chartReward
	allCharts = chartCritic | chartVal | chartReward
)

// chartNames name the charts as the panel writes them and reads them typed, top to bottom.
var chartNames = []struct {
	c    chartSet
	name string
}{{chartReward, "reward"}, {chartVal, "val"}, {chartCritic, "critic"}}

// has reports whether c is in s.
func (s chartSet) has(c chartSet) bool { return s&c != 0 }

// String is "off", "all", or the charts in s: "val critic".
func (s chartSet) String() string {
	switch s & allCharts {
	case 0:
		return "off"
	case allCharts:
		return "all"
	}
	var names []string
	for _, n := range chartNames {
		if s.has(n.c) {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, " ")
}

// stepped is the next set of the eight (back when down), in the panel's order: off, critic,
// val, val critic, reward, reward critic, reward val, all.
func (s chartSet) stepped(up bool) chartSet {
	if up {
		return (s + 1) & allCharts
	}
	return (s + allCharts) & allCharts
}

// parseChartSet reads a typed set: "off", "all", or chart names separated by spaces, commas or
// "+" ("val, critic").
func parseChartSet(text string) (chartSet, error) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return r == ' ' || r == ',' || r == '+' })
	var s chartSet
	for _, w := range words {
		switch w {
		case "off", "none":
			continue
		case "all":
			s = allCharts
			continue
		}
		found := false
		for _, n := range chartNames {
			if n.name == w {
				s, found = s|n.c, true
			}
		}
		if !found {
			return 0, fmt.Errorf("log scale %q: not a chart (reward, val, critic, all or off)", w)
		}
	}
	return s, nil
}

// setLogScale draws the charts of s on a log scale and the others on a linear one.
func (m *model) setLogScale(s chartSet) {
	m.ctx.logScale = s & allCharts
	m.ctx.displayVer++
	if m.ctx.logScale == 0 {
		m.info("log scale off: every chart linear")
		return
	}
	m.info("log scale: %s", m.ctx.logScale)
}
