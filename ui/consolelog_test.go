package ui

import (
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestConsoleLogFollowsTaskSwitch: after a task switch the console's log goes to the new run's
// directory (it used to stay in the first run's).
func TestConsoleLogFollowsTaskSwitch(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	logs, restore, err := redirectLogs(first, false)
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	m.logs = logs
	log.Print("before the switch")
	eng := &staticEngine{cfg: tinyConfig(envs.TaskTSP, 10), info: run.RunInfo{Dir: second, Title: "SPG · TSP-10"}}
	m.switched(switchedMsg{engine: eng})
	log.Print("after the switch")
	for dir, want := range map[string]string{first: "before the switch", second: "after the switch"} {
		data, err := os.ReadFile(filepath.Join(dir, LogFile))
		if err != nil || !strings.Contains(string(data), want) || strings.Count(string(data), "the switch") != 1 {
			t.Errorf("%s: %q, %v; want only %q", dir, data, err, want)
		}
	}
}
