package samples

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"spg-tui/envs/gm"
)

// The gm drawing shows G2 reordered by the correspondence beside G1: with the planted
// correspondence and no noise the two heatmaps are the same picture, with another they are not.
func TestGraphHeatmapsAgreeOnThePlantedCorrespondence(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 12
	g1, g2, planted := gm.Generate(rng, gm.Params{N: n, Graph: gm.ErdosRenyi, P: 0.3})
	draw := func(perm []int) (left, right string) {
		st := lipgloss.NewStyle()
		l := heatmap(12, 6, n, func(i, j int) bool { return g1[i][j] != 0 }, st)
		r := heatmap(12, 6, n, func(i, j int) bool { return g2[perm[i]][perm[j]] != 0 }, st)
		return ansi.Strip(strings.Join(l, "\n")), ansi.Strip(strings.Join(r, "\n"))
	}
	left, right := draw(planted)
	if left != right || strings.TrimSpace(strings.ReplaceAll(left, "\u2800", "")) == "" {
		t.Errorf("planted correspondence:\n%s\n---\n%s", left, right)
	}
	other := slices.Clone(planted)
	other[0], other[1], other[2] = other[1], other[2], other[0]
	if left, right := draw(other); left == right {
		t.Errorf("a wrong correspondence draws the same picture:\n%s", left)
	}
}
