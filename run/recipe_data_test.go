package run

import (
	"testing"

	"spg-tui/envs"
)

// best on gm chooses by the data: spg-gm-spectral with the live critic and the critic penalty on
// regular graphs, where spg-gm keeps less than 2-swap; spg-gm with the slow critic elsewhere (ER,
// the default, and ""). The choice is stated (RecipeChoice) only where it was made and trained.
func TestBestGMChoosesByTheData(t *testing.T) {
	parse := func(args ...string) Config {
		t.Helper()
		c, err := parseTrainFlags(append([]string{"--task", "gm", "--n", "50", "--recipe", "best"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	er := parse()
	if er.Model != ModelGM || er.TargetCritic != bestTargetCritic || er.CriticPenalty {
		t.Errorf("best on ER: model %s, target critic %g, penalty %v; want %s, %g, off", er.Model, er.TargetCritic, er.CriticPenalty, ModelGM, bestTargetCritic)
	}
	if kind, choice := RecipeChoice(er); kind != "" || choice != "" {
		t.Errorf("best on ER states a choice by the data: %q %q", kind, choice)
	}
	for _, data := range []string{"er:p=0.3", ""} {
		c := DefaultConfig(envs.TaskGM, 50)
		c.Data = data
		if got, err := WithRecipe(c, RecipeBest); err != nil || got.Model != ModelGM {
			t.Errorf("best on data %q: model %s, %v; want %s", data, got.Model, err, ModelGM)
		}
	}

	regular := parse("--data", "regular:d=10,noise=0.05,noise-model=nowak")
	want := er
	want.Data, want.Model = "regular:d=10,noise=0.05,noise-model=nowak", ModelGMSpectral
	want.TargetCritic, want.CriticPenalty = 0, true
	if regular != want {
		t.Errorf("best on regular graphs:\ngot  %+v\nwant %+v", regular, want)
	}
	if kind, choice := RecipeChoice(regular); kind != "regular graphs" || choice != "spg-gm-spectral, the live critic (target-critic 0), the critic penalty" {
		t.Errorf("best on regular graphs states %q: %q", kind, choice)
	}
	if got, err := WithRecipe(DefaultConfig(envs.TaskGM, 20), RecipeBest); err != nil || got.Model != ModelGM {
		t.Fatalf("console's best on gm: %s, %v", got.Model, err)
	}
	c := DefaultConfig(envs.TaskGM, 20)
	c.Data = "regular:d=4"
	if got, err := WithRecipe(c, RecipeBest); err != nil || got.Model != ModelGMSpectral || got.TargetCritic != 0 || !got.CriticPenalty {
		t.Errorf("console's best on regular graphs: model %s, target critic %g, penalty %v, %v", got.Model, got.TargetCritic, got.CriticPenalty, err)
	}

	// Flags still win; a model given by flag is not the recipe's choice, so none is stated.
	own := parse("--data", "regular:d=10", "--model", ModelGM, "--target-critic", "0.01")
	if own.Model != ModelGM || own.TargetCritic != 0.01 || !own.CriticPenalty {
		t.Errorf("best on regular graphs with flags: model %s, target critic %g, penalty %v", own.Model, own.TargetCritic, own.CriticPenalty)
	}
	if kind, _ := RecipeChoice(own); kind != "" {
		t.Errorf("--model %s states the recipe's choice %q", ModelGM, kind)
	}
	if kind, _ := RecipeChoice(parse("--data", "regular:d=10", "--recipe", RecipePaper)); kind != "" {
		t.Errorf("recipe paper states a choice by the data: %q", kind)
	}
}
