// Package draw is the console's text drawing, knowing nothing of panes or runs: styles and the
// palette, number formats, fitting text into cells and framing it, a layered braille canvas,
// line charts drawn by asciigraph with their step or time axis, and the smoothing and
// resampling of the series they show. Package ui's panes draw with it.
package draw
