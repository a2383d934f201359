package suppress

func work() {}

func reported() {
	go work() // want "go statement"
}

func trailing() {
	go work() //admitlint:ignore gostmt the goroutine is bounded by its caller
}

func above() {
	//admitlint:ignore gostmt the goroutine is bounded by its caller
	go work()
}

func listedAmongOthers() {
	//admitlint:ignore lateacquire,gostmt listed second
	go work()
}

func tooFarAbove() {
	/* want "no gostmt finding on this line or the next" */ //admitlint:ignore gostmt two lines above does not count

	go work() // want "go statement"
}

func otherPass() {
	//admitlint:ignore lateacquire names another pass only
	go work() // want "go statement"
}

func noReason() {
	//admitlint:ignore gostmt
	go work() // want "go statement"
}

func stale() {
	/* want "no gostmt finding on this line or the next" */ //admitlint:ignore gostmt nothing here any more
	work()
}

func staleAmongOthers() {
	/* want "no gostmt finding on this line or the next" */ //admitlint:ignore lateacquire,gostmt nothing here either
	work()
}

func staleTrailing() {
	work() /* want "no gostmt finding on this line or the next" */ //admitlint:ignore gostmt nothing to silence
}
