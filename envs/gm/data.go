package gm

import (
	"fmt"
	"strconv"
	"strings"

	"spg-tui/envs"
)

// gmDataUsage says what --data may be for gm.
// What each setting means is in docs/commands.md (gen, "Data specs").
const gmDataUsage = "gm: er[:p=P][,noise=X][,noise-model=M] (default " + gmDefaultSpec + ") or " +
	"regular:d=D[,noise=X][,noise-model=M], M nowak or flip (a spec without it: flip)"

// gmDefaultSpec is the data new gm runs and files use: Nowak et al.'s (2018) noise model on
// their Erdos-Renyi graphs.
const gmDefaultSpec = "er:p=0.2,noise=0.05,noise-model=nowak"

// gmDefaultData is the data of "", that of runs and files made before gm named a default
// spec: Erdos-Renyi graphs with p = 0.2 and each node pair flipped with probability 0.05.
var gmDefaultData = Params{Graph: ErdosRenyi, P: 0.2, Noise: 0.05, Model: Flip}

// DataParams reads the gm data spec at size n (--data; "" is the data of runs and files made before
// gm named a default spec), so that a caller may choose by it (a recipe's model for regular
// graphs); the error is envs.NewData's.
func DataParams(n int, spec string) (Params, error) {
	if spec == "" {
		p := gmDefaultData
		p.N = n
		return p, nil
	}
	return parseData(n, spec)
}

// parseData reads a gm data specification for graphs on n nodes: a family ("er" or "regular"),
// then after a colon comma-separated key=value settings (p for er, d for regular, noise and
// noise-model for both), at least one. Unset values keep gmDefaultData's; regular needs d.
func parseData(n int, spec string) (Params, error) {
	p := gmDefaultData
	p.N = n
	family, settings, hasSettings := strings.Cut(spec, ":")
	switch family {
	case "er":
	case "regular":
		p.Graph, p.P = Regular, 0
	default:
		return p, fmt.Errorf("data %s: unknown graph family %s (%s)", envs.QuoteClip(spec), envs.QuoteClip(family), gmDataUsage)
	}
	hasD := false
	seen := map[string]bool{}
	var kvs []string
	if hasSettings { // a colon starts a settings list, which may not be empty: "er:" is refused as "range:" is
		kvs = strings.Split(settings, ",")
	}
	for _, kv := range kvs {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			return p, fmt.Errorf("data %s: %s is not key=value (%s)", envs.QuoteClip(spec), envs.QuoteClip(kv), gmDataUsage)
		}
		if seen[key] {
			return p, fmt.Errorf("data %s: %s given twice", envs.QuoteClip(spec), envs.QuoteClip(key))
		}
		seen[key] = true
		var err error
		switch {
		case key == "noise":
			p.Noise, err = strconv.ParseFloat(value, 64)
		case key == "noise-model":
			if p.Model, ok = gmNoiseModels[value]; !ok {
				return p, fmt.Errorf("data %s: unknown noise-model %s, want nowak or flip (%s)", envs.QuoteClip(spec), envs.QuoteClip(value), gmDataUsage)
			}
		case key == "p" && p.Graph == ErdosRenyi:
			p.P, err = strconv.ParseFloat(value, 64)
		case key == "d" && p.Graph == Regular:
			p.D, err = strconv.Atoi(value)
			hasD = true
		default:
			return p, fmt.Errorf("data %s: unknown setting %s for %s (%s)", envs.QuoteClip(spec), envs.QuoteClip(key), family, gmDataUsage)
		}
		if err != nil {
			return p, fmt.Errorf("data %s: %s = %s is not a number", envs.QuoteClip(spec), key, envs.QuoteClip(value))
		}
	}
	if p.Graph == Regular && !hasD {
		return p, fmt.Errorf("data %s: regular graphs need d=D (%s)", envs.QuoteClip(spec), gmDataUsage)
	}
	check := p
	check.N = max(n, 2) // an environment of size 1 is legal; its graphs are empty
	if err := check.Validate(); err != nil {
		return p, fmt.Errorf("data %s: %v", envs.QuoteClip(spec), err)
	}
	if p.Graph == Regular && p.D >= n { // size 1 checked at size 2 above would allow d = 1
		return p, fmt.Errorf("data %s: gm: degree d = %d, need 0 <= d < n = %d", envs.QuoteClip(spec), p.D, n)
	}
	return p, nil
}

// gmNoiseModels are the values of noise-model.
var gmNoiseModels = map[string]Noise{Flip.String(): Flip, Nowak.String(): Nowak}
