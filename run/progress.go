package run

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ProgressLine is a one-line human summary of a record of a run of cfg, as the train command
// prints it; "" for records not worth a line (checkpoints). A critic-free model's training line
// shows its moving-average baseline where an SPG model's shows the critic.
func ProgressLine(rec Record, cfg Config) string {
	total := cfg.Steps
	switch {
	case rec.Train != nil && !ModelOf(cfg).Kind.HasCritic():
		tr := rec.Train
		return fmt.Sprintf("step %d/%d: reward %.4g ± %.3g, baseline %.4g, actor %.4g (no critic), %.1f steps/s",
			rec.Step, total, tr.RewardMean, tr.RewardStd, tr.Baseline, tr.ActorLoss, tr.StepsPerSec)
	case rec.Train != nil:
		tr := rec.Train
		return fmt.Sprintf("step %d/%d: reward %.4g ± %.3g, critic %.4g (hard %.4g, penalty %.4g), actor %.4g, Q %.4g/%.4g, birkhoff %.3f, eps %.3f, %.1f steps/s",
			rec.Step, total, tr.RewardMean, tr.RewardStd, tr.CriticLoss, tr.CriticHard, tr.CriticPenalty,
			tr.ActorLoss, tr.QHard, tr.QSoft, tr.Birkhoff, tr.Epsilon, tr.StepsPerSec)
	case rec.Eval != nil:
		ev := rec.Eval
		s := fmt.Sprintf("%s at step %d: %s %.4f, reward %.4g", ev.Split, rec.Step, ev.MetricName, ev.Metric, ev.EvalReward)
		if ev.RatioOfMeans != 0 {
			s += fmt.Sprintf(" (median %.4f, ratio of means %.4f)", ev.RatioMedian, ev.RatioOfMeans)
		}
		if ev.Gap != nil {
			s += fmt.Sprintf(", gap %.2f%%", 100**ev.Gap)
		}
		if ev.Sampled != nil {
			s += fmt.Sprintf(", sampled (K = %d) %s %.4f", ev.Sampled.Samples, ev.MetricName, ev.Sampled.Metric)
		}
		for _, name := range slices.Sorted(maps.Keys(ev.Also)) {
			s += fmt.Sprintf(", %s %.4f", name, ev.Also[name])
		}
		if ev.Best {
			s += ", best so far"
		}
		return s
	case rec.Event != nil:
		ev := rec.Event
		switch ev.Event {
		case EventCheckpoint:
			return ""
		case EventSet:
			return fmt.Sprintf("step %d: %s %g -> %g", rec.Step, ev.Param, ev.Old, ev.New)
		case EventStart:
			if ev.References == nil {
				return fmt.Sprintf("start: %s; validation references: solved while the run trains", ev.Message)
			}
			return fmt.Sprintf("start: %s; validation references: %s", ev.Message, referenceList(ev.References))
		case EventReferences:
			return fmt.Sprintf("step %d: validation references solved: %s", rec.Step, referenceList(ev.References))
		}
		if ev.Message != "" {
			return fmt.Sprintf("%s: %s", ev.Event, ev.Message)
		}
		return fmt.Sprintf("%s at step %d", ev.Event, rec.Step)
	}
	return ""
}

// referenceList is "name value, ..." of a set's references, by name.
func referenceList(refs map[string]float64) string {
	keys := slices.Sorted(maps.Keys(refs))
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%s %.4f", k, refs[k])
	}
	return strings.Join(out, ", ")
}
