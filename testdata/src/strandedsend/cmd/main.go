// Command cmd holds the main function: its goroutines end with the
// process, so nothing it strands leaks.
package main

func compute() int { return 1 }

// nope: main's goroutines end with the process.
func main() {
	c := make(chan int)
	go func() { c <- compute() }()
	if compute() > 0 {
		return
	}
	<-c
}

// A function of package main other than main leaks like any other.
func helper() int {
	c := make(chan int)
	go func() { c <- compute() }() // want `\(return at main.go:22\)`
	if compute() > 0 {
		return 0
	}
	return <-c
}
