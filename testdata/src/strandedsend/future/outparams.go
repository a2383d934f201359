package future

// Results filled in the background, returned by address beside a channel
// that says they are complete: a caller that reads them before it
// receives races with the goroutine writing them, so every caller waits,
// in view or not.

// ok: done says that *words is complete; no caller can use the words
// without taking it first.
func CollectWords(in <-chan string) (*[]string, <-chan bool) {
	var words []string
	done := make(chan bool)
	go func() {
		for w := range in {
			words = append(words, w)
		}
		done <- true
	}()
	return &words, done
}

// The same variable written only after the send: the send says the
// goroutine started, and a caller can leave before taking it.
func CollectWordsStarted(in <-chan string) (*[]string, <-chan bool) {
	var words []string
	started := make(chan bool)
	go func() {
		started <- true // want `send on unbuffered started blocks forever if the caller of CollectWordsStarted stops waiting for the result; the goroutine leaks — make started buffered`
		for w := range in {
			words = append(words, w)
		}
	}()
	return &words, started
}

// A variable written before the send but not returned: the count is the
// result itself, and a caller can stop waiting for it.
func Tally(in <-chan string) <-chan int {
	count := 0
	total := make(chan int)
	go func() {
		for range in {
			count++
		}
		total <- count // want `send on unbuffered total blocks forever if the caller of Tally stops waiting for the result; the goroutine leaks — make total buffered`
	}()
	return total
}
