// Package ui is the spg-tui console: a Bubble Tea program that drives one training run through
// run.Engine and draws it live — the reward and critic-loss curves, the Q scatter of the
// paper's Figure 2, sample solutions, and a panel of live hyperparameters — plus a view that runs
// the paper's ablations side by side (package experiments).
//
// Structure: a shared programContext (screen size, styles, the run's description, live
// configuration and status, and the run's data) and one component per pane, each with SetSize,
// View (cached by a version counter, so a pane is redrawn only when its data changed) and, where
// it takes keys, a KeyMap. The root model polls the engine 15 times a second and never blocks
// on it.
//
// Below the panes: package ui/draw (styles, text, the braille canvas and the line charts, which
// know nothing of panes or runs) and ui/export (the e key's CSV and PNG files). A run opened
// read-only is followed through run/runlog's Replay; no file of ui opens metrics.jsonl.
package ui
