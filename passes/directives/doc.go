// Package directives defines an Analyzer that reports malformed
// //admitlint:ignore directives.
//
// # Analyzer directives
//
// directives: report //admitlint:ignore directives that cannot take effect
//
// A finding is silenced by a comment on its line or on the line above:
//
//	//admitlint:ignore lateacquire,strandedsend <reason>
//
// The reason is required: a suppression is a claim that the code is
// right, and the next reader needs to know why. This analyzer reports
// directives that silence nothing because they are malformed: no reason,
// no pass name, a pass name admitlint does not have, a verb other than
// ignore, or a space after the slashes ("// admitlint:ignore"), which Go
// tools do not treat as a directive. Each pass reports, itself, a
// well-formed directive that names it but silences none of its findings.
package directives

import _ "embed"

//go:embed doc.go
var doc string
