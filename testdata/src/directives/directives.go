// Package directives holds //admitlint: comments, well-formed and not.
package directives

func work() {}

func wellFormed() {
	//admitlint:ignore alpha the caller bounds this
	go work()
	go work() //admitlint:ignore alpha,beta trailing, two passes
}

func malformed() {
	/* want `//admitlint:ignore has no reason` */ //admitlint:ignore alpha
	go work()
	/* want `names no pass` */ //admitlint:ignore
	go work()
	/* want `names unknown pass gamma; admitlint's passes are alpha, beta` */ //admitlint:ignore alpha,gamma reason given
	go work()
	/* want `unknown admitlint directive "ignroe"` */ //admitlint:ignroe alpha typo
	go work()
	/* want `is not a directive; write //admitlint: with no space` */ // admitlint:ignore alpha spaced out
	go work()
}

// Ordinary comments that mention admitlint:ignore are not directives.
func prose() {
	/* //admitlint:ignore alpha inside a block comment */
	go work()
}
