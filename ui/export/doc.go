// Package export writes what the console's e key exports: the visible curves as CSV (train.csv,
// eval.csv) and as PNG plots (reward, validation, critic loss, the Q scatter) drawn through
// package plots. The console hands it a copy of its data, so the files are written off the
// console's goroutine.
package export
