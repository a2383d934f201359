package exits

// ok: the return under errc == nil && items == nil is never taken:
// both channels are made once, before anything reads them, and never
// set to nil. The live exits come after the sender's last send: the
// closed channel, and an error the goroutine sends only after it has
// closed items (validation set 37, prysm's metrics scraper).
func collect(n int, produce func(int) (int, error)) ([]int, error) {
	items := make(chan int)
	errc := make(chan error, 1)
	go func() {
		defer close(items)
		for i := 0; i < n; i++ {
			v, err := produce(i)
			if err != nil {
				errc <- err
				return
			}
			items <- v
		}
	}()
	var out []int
	for {
		select {
		case v, ok := <-items:
			if !ok {
				return out, nil
			}
			out = append(out, v)
		case err := <-errc:
			return out, err
		}
		if errc == nil && items == nil {
			return out, nil
		}
	}
}

// The twin whose error channel is made only when asked for: when it is
// not, errc is nil, the test holds after the first value, and the
// receiver leaves with the rest still to send.
func collectChecked(n int, produce func(int) (int, error), check bool) ([]int, error) {
	items := make(chan int)
	var errc chan error
	if check {
		errc = make(chan error, 1)
	}
	go func() {
		defer close(items)
		for i := 0; i < n; i++ {
			v, err := produce(i)
			if err != nil && errc != nil {
				errc <- err
				return
			}
			items <- v // want `send on items blocks forever once the receiver stops receiving \(return at deadtest.go:\d+\)`
		}
	}()
	var out []int
	for {
		select {
		case v, ok := <-items:
			if !ok {
				return out, nil
			}
			out = append(out, v)
		case err := <-errc:
			return out, err
		}
		if errc == nil {
			return out, nil
		}
	}
}
