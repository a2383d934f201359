// Package directives exports the directives pass of the admitlint suite,
// which reports malformed //admitlint:ignore directives and names that are
// not admitlint's passes, for drivers that take analyzers one package at a
// time (nogo). It is passes/directives built with the suite's pass names.
package directives

import "github.com/admitlint/admitlint/analyzer"

// Analyzer checks directives against the names of admitlint's passes.
var Analyzer = analyzer.Directives()
