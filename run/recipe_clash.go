package run

import (
	"fmt"
	"strings"
)

// recipeClash refuses, in one line, the settings a recipe chose for its own model that the
// model named by --model cannot take (best's bilinear critic, its log rounding, its hard actor
// update), naming the flags that replace them; the flags given explicitly are the user's and
// keep their own messages. nil when there is none.
func recipeClash(c Config, set map[string]bool) error {
	m := ModelOf(c)
	if !m.Supports(c.Task) {
		return nil // Validate names the tasks the model learns
	}
	var got, fix []string
	if !set["critic"] && !validCritic(c.Critic, c.Task, c.Model) {
		got, fix = append(got, "critic "+c.Critic), append(fix, "--critic "+CriticPaper)
	}
	if !set["actor-at"] && actorAtRefused(m, c.ActorAt) != nil {
		got, fix = append(got, "actor-at "+c.ActorAt), append(fix, "--actor-at "+ActorAtSoft)
	}
	if !set["rounding"] && RoundingRefused(m, c.Rounding) != nil {
		got, fix = append(got, "rounding "+c.Rounding), append(fix, "--rounding "+RoundingM)
	}
	if len(got) == 0 {
		return nil
	}
	return fmt.Errorf("--model %s cannot take recipe %s's %s on %s (they are for the recipe's own model); give %s",
		c.Model, c.Recipe, strings.Join(got, ", "), c.Task, strings.Join(fix, " "))
}
