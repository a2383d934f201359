package uses_test

import (
	"testing"

	"example.com/partload/only"
)

func TestDo(t *testing.T) { only.Helper() }
