package golangci

func work() {}

// Spawn carries one finding of each kind admitlint reports.
func Spawn() {
	// admitlint:ignore lateacquire written with a space
	go work()
}

// Quiet has the same finding, silenced by golangci-lint's own directive.
//
//nolint:admitlint // the fixture's golangci-lint suppression case
func Quiet() {
	// admitlint:ignore lateacquire written with a space
	go work()
}
