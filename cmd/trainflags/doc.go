// Package trainflags is the training flags of train, tui and an experiment's settings: their
// registration into a run.Config, their help (each recipe's defaults), a resume's rules. A new
// run's flags resolve through run.Choose, where bench, the console's task switch and the
// experiments resolve theirs.
package trainflags
