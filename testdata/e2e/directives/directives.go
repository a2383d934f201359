package directives

func work() {}

func Spawn() {
	// admitlint:ignore lateacquire written with a space
	go work()
	//admitlint:ignore nosuchpass reason given
	go work()
}
