package envs

import (
	"strings"
	"testing"
)

// TestReadFileRefusesHugeCoordinates: numbers whose squared distances overflow float64 (which made
// Christofides index -1) are refused with one line naming the instance, the number and the bound,
// for every task; numbers at the bound are read.
func TestReadFileRefusesHugeCoordinates(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"task":"tsp","n":4,"instances":[{"points":[[1e155,0],[-1e155,0],[0,1e155],[0,-1e155]]}]}`,
			"instance 0: points[0][0] = 1e+155 is outside [-1e+30, 1e+30]"},
		{`{"task":"mwm","n":1,"instances":[{"a":[[0,0]],"b":[[0,0]]},{"a":[[0,0]],"b":[[0,-1.5e30]]}]}`,
			"instance 1: b[0][1] = -1.5e+30 is outside [-1e+30, 1e+30]"},
		{`{"task":"sort","n":2,"instances":[{"values":[0,1.7e308]}]}`,
			"instance 0: values[1] = 1.7e+308 is outside [-1e+30, 1e+30]"},
		{`{"task":"tsp","n":2,"instances":[{"points":[[1e30,-1e30],[-1e30,1e30]]}]}`, ""},
	} {
		_, _, err := ReadFile(strings.NewReader(tc.in))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: error %v, want one line starting %q", tc.in, err, tc.want)
		}
	}
}
