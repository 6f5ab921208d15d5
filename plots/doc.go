// Package plots draws the project's PNG figures with gonum/plot: line charts with legends,
// confidence bands, scatters and grids of them. The console's export (package ui) and the
// experiment report (package experiments) both draw through it, so neither imports gonum/plot
// and a figure of either looks the same. Lengths are in typographic points, sizes in inches.
package plots
