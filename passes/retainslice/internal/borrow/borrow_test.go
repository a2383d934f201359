package borrow_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/admitlint/admitlint/passes/retainslice/internal/borrow"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), borrow.Analyzer, "lex", "yolo")
}
