package run

// Drain hands fn the records waiting on recs, at most max of them (all when max <= 0), without
// waiting for more. It reports whether the stream is still open: false once recs is closed and
// read to its end. A reader that must not block (the console, once per frame) calls it.
func Drain(recs <-chan Record, max int, fn func(Record)) (open bool) {
	for n := 0; max <= 0 || n < max; n++ {
		select {
		case r, ok := <-recs:
			if !ok {
				return false
			}
			fn(r)
		default:
			return true
		}
	}
	return true
}

// Follow hands fn every record of recs until the engine closes it after its last record. A
// reader that has nothing else to do (the headless train command, the experiment runner)
// calls it.
func Follow(recs <-chan Record, fn func(Record)) {
	for r := range recs {
		fn(r)
	}
}
