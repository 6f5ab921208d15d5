package gpulayers_test

import (
	"testing"

	"spg-tui/linalg/cuda/emu/emutest"
)

func TestMain(m *testing.M) { emutest.MainCoverAll(m) }
