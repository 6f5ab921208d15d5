package sysmem

import (
	"strings"
	"testing"
)

func TestBytes(t *testing.T) {
	for _, tc := range []struct {
		b    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {3 << 29, "1.5 GiB"}, {80 << 30, "80.0 GiB"}, {-1, "more than 8 EiB"},
	} {
		if got := Bytes(tc.b); got != tc.want {
			t.Errorf("Bytes(%d) = %q, want %q", tc.b, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	limit := Limit()
	if limit <= 0 {
		t.Skip("no memory limit readable here")
	}
	if err := Check("x", limit/2); err != nil {
		t.Errorf("half the limit refused: %v", err)
	}
	if err := Check("the thing", limit+1); err == nil || !strings.Contains(err.Error(), "the thing needs about") {
		t.Errorf("above the limit: %v", err)
	}
	if err := Check("overflow", -1); err == nil {
		t.Error("an overflowed estimate was accepted")
	}
}
