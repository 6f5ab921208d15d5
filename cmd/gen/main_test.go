package gencmd_test

import (
	"testing"

	"spg-tui/internal/clitest"
)

// TestMain lets this test binary double as spg-tui, for the tests that run the command line.
func TestMain(m *testing.M) { clitest.Main(m) }
