package acquire_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/lateacquire/internal/acquire"
)

func TestFacts(t *testing.T) {
	testdata, _ := filepath.Abs("../../../../testdata")
	var named []string
	analysistest.Run(t, testdata, acquire.New(&named), "lateacquire/pool")
}
