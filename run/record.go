package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"spg-tui/envs"
)

// Record kinds, as written in the "kind" field of metrics.jsonl.
const (
	KindTrain = "train"
	KindEval  = "eval"
	KindEvent = "event"
)

// Record is one line of a run's metrics.jsonl and one message on the engine's metrics stream.
// Exactly one of Train, Eval and Event is set, matching Kind; their fields are flattened into the
// JSON object beside kind, step and wall.
type Record struct {
	Kind string `json:"kind"`
	// Step is the number of training steps completed when the record was made.
	Step int `json:"step"`
	// Wall is the run's training time in seconds, accumulated across resumes.
	Wall float64 `json:"wall"`
	*Train
	*Eval
	*Event
}

// Train is the summary of one logging interval.
type Train struct {
	RewardMean float64 `json:"reward_mean"`
	RewardStd  float64 `json:"reward_std"`
	// CriticHard is MSE(r, Q(s,P)); CriticPenalty is MSE(stopgrad Q(s,P), Q(s,M)), reported even
	// when the penalty is switched off (then it is not trained on).
	CriticHard    float64 `json:"critic_hard"`
	CriticPenalty float64 `json:"critic_penalty"`
	CriticLoss    float64 `json:"critic_loss"`
	ActorLoss     float64 `json:"actor_loss"`
	QHard         float64 `json:"q_hard"`
	QSoft         float64 `json:"q_soft"`
	// Birkhoff is the mean of sum(M * P) / N: 1 when M is a permutation matrix.
	Birkhoff float64 `json:"birkhoff"`
	// Baseline is the moving-average reward baseline of the critic-free models (REINFORCE),
	// against which their advantages are taken; 0 for the others.
	Baseline    float64 `json:"baseline"`
	Epsilon     float64 `json:"epsilon"`
	ActorLR     float64 `json:"actor_lr"`
	CriticLR    float64 `json:"critic_lr"`
	StepsPerSec float64 `json:"steps_per_sec"`
}

// Eval is one evaluation of the deterministic policy (Sinkhorn, then Hungarian, no noise).
type Eval struct {
	// Split is "val" or "test".
	Split      string  `json:"split"`
	EvalReward float64 `json:"eval_reward"`
	// Metric is the task metric: the mean per-instance optimality ratio for mwm, the mean Kendall
	// tau for sort, the mean tour length for tsp. MetricName names it.
	MetricName string  `json:"metric_name"`
	Metric     float64 `json:"metric"`
	// RatioMedian and RatioOfMeans complete the mwm picture (0 for other tasks).
	RatioMedian  float64 `json:"ratio_median,omitempty"`
	RatioOfMeans float64 `json:"ratio_of_means,omitempty"`
	// Gap is the tsp tour length over the Held-Karp optimum, minus 1 (n <= 20 only); nil where
	// no optimum is known, so that an optimal policy's 0 is written and told apart from it.
	Gap *float64 `json:"gap,omitempty"`
	// RefsPending marks a validation made while its set's references were still being solved
	// (the run trains meanwhile): it lacks Gap and the samples' reference solutions, which the
	// run's later references event supplies (ReferenceFill). Its Metric does not depend on the
	// references: a metric scored against the optimum per instance waits for them.
	RefsPending bool `json:"refs_pending,omitempty"`
	// Also holds the task's other measures (envs.Facts.Also), each the mean over the instances
	// where it applies: gm's "recovery".
	Also map[string]float64 `json:"also,omitempty"`
	// Best reports whether this evaluation is the best so far on the validation set.
	Best bool `json:"best,omitempty"`
	// QHardScatter and QSoftScatter are Q(s,P) and Q(s,M) for the fixed validation states of the
	// paper's Figure 2 (val evaluations only).
	QHardScatter []float64 `json:"q_hard_scatter,omitempty"`
	QSoftScatter []float64 `json:"q_soft_scatter,omitempty"`
	// Samples are a few validation instances with the policy's and the optimal solutions.
	Samples []Sample `json:"samples,omitempty"`
	// Sampled is the sampled decode's score beside this single decode's, for a validation
	// with Config.ValSamples > 1.
	Sampled *SampledEval `json:"sampled,omitempty"`
}

// SampledEval is a validation's sampled decode: the best of Samples candidates per instance.
type SampledEval struct {
	Samples int     `json:"samples"`
	Metric  float64 `json:"metric"`
}

// Sample is one instance with the policy's solution beside the reference one.
type Sample struct {
	Index         int           `json:"index"`
	Instance      envs.Instance `json:"instance"`
	Perm          []int         `json:"perm"`
	Objective     float64       `json:"objective"`
	OptPerm       []int         `json:"opt_perm"`
	OptObjective  float64       `json:"opt_objective"`
	OptSolverName string        `json:"opt_solver"`
	// M is the actor's soft permutation for the instance (n x n, row-major), rows the items and
	// columns the places as Hungarian rounding sees them. It travels only to a console in the same
	// process: n*n numbers for each sample of each evaluation would make metrics.jsonl grow by
	// kilobytes per evaluation (megabytes at n = 50), while Entropy and Birkhoff keep its history.
	M []float32 `json:"-"`
	// Entropy is the mean row entropy of M in nats (0 for a permutation matrix, ln n for the
	// uniform matrix); Birkhoff is sum(M * P) / n for the rounded P (1 when M is P). Both are 0
	// in records written before they existed.
	Entropy  float64 `json:"m_entropy,omitempty"`
	Birkhoff float64 `json:"m_birkhoff,omitempty"`
}

// Event kinds.
const (
	EventStart      = "start"
	EventSet        = "set"
	EventPause      = "pause"
	EventResume     = "resume"
	EventCheckpoint = "checkpoint"
	EventStop       = "stop"
	EventDone       = "done"
	EventError      = "error"
	// EventReferences says that the validation set's references, solved while the run trained,
	// are ready: it carries them (References) and what the validations made before them lack
	// (Fill).
	EventReferences = "references"
)

// Event is something that happened to the run: a start, a live change, a checkpoint, an end.
type Event struct {
	Event string `json:"event"`
	// Param, Old and New describe a live change ("set"); booleans are 0 or 1. Old and New are
	// always written, since 0 is a meaningful value (a switch turned off).
	Param string  `json:"param,omitempty"`
	Old   float64 `json:"old"`
	New   float64 `json:"new"`
	// Message is a human-readable line (the error, the checkpoint path, ...).
	Message string `json:"message,omitempty"`
	// References are the baselines of the task on the validation set, sent with "start" (or with
	// "references" when they were solved after it), in the units of Eval.Metric: e.g.
	// {"random": 0.72, "greedy": 0.97, "optimal": 1}.
	References map[string]float64 `json:"references,omitempty"`
	// Fill, sent with "references", completes the validations made before them (RefsPending).
	Fill *ReferenceFill `json:"fill,omitempty"`
	// RunID is the identity of the run (the hash its checkpoints carry), sent with "start", so
	// that a resume can tell whose records a directory holds even without its config.json.
	RunID string `json:"run_id,omitempty"`
	// ResumedEarly, sent with "start", says that the run resumed from an early checkpoint, one
	// without the replay buffer: from here on its numbers differ from an uninterrupted run's.
	ResumedEarly bool `json:"resumed_early,omitempty"`
	// Device, sent with "start", is where this stretch of the run trains: the GPU's name
	// ("cuda: NVIDIA H200, driver 13.0, sm_90"), or "cpu" with why where there is a why ("cpu
	// (GPU not used: cuBLAS not found; ...)"). It is not part of the run's identity: a run may
	// resume on another device.
	Device string `json:"device,omitempty"`
}

// ReadRecords reads a metrics.jsonl file. A torn last line (a run killed mid-write) is ignored;
// any other malformed line is an error naming its line number. A file that is not regular, or
// a line longer than MaxRecordLine, is refused in one line.
func ReadRecords(path string) ([]Record, error) {
	f, err := OpenRegular(path, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeRecords(NewLineReader(f, path))
}

// DecodeRecords reads metrics.jsonl records from r (see ReadRecords).
func DecodeRecords(r io.Reader) ([]Record, error) {
	return decodeRecords(NewLineReader(r, MetricsFile))
}

func decodeRecords(lr *LineReader) ([]Record, error) {
	var (
		out     []Record
		pending error
	)
	decode := func(line []byte, number int) {
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			pending = fmt.Errorf("metrics line %d: %v", number, err)
			return
		}
		out = append(out, rec)
	}
	for {
		line, err := lr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if pending != nil {
			return nil, pending
		}
		decode(line, lr.Line())
	}
	if rest := lr.Rest(); rest != nil {
		if pending != nil {
			return nil, pending
		}
		decode(rest, lr.Line()+1)
	}
	return out, nil
}

// Result is the content of a run directory's result.json (ResultFile): the test evaluation of
// a finished run, written by its trainer or by an import.
type Result struct {
	Step     int   `json:"step"`
	BestStep int   `json:"best_step"`
	Test     *Eval `json:"test"`
}
