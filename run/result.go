package run

// Result is the content of a run directory's result.json (ResultFile): the test evaluation of
// a finished run, written by its trainer or by an import.
type Result struct {
	Step     int   `json:"step"`
	BestStep int   `json:"best_step"`
	Test     *Eval `json:"test"`
}
