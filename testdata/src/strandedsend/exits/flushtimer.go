package exits

import (
	"bufio"
	"errors"
	"io"
	"time"
)

// ok: the timer case only flushes a partial line and the loop goes
// round. The loop's exits test err, nil when each line starts and set
// only by the case that takes the reader's last value (its error, after
// which it returns): the receiver leaves only once nothing is left to
// send (validation set 39, go-linereader and prefixedio).
func readLines(r io.Reader, flush time.Duration, out chan<- string) {
	defer close(out)
	buf := bufio.NewReader(r)
	bytec := make(chan byte)
	donec := make(chan error)
	go func() {
		for {
			b, err := buf.ReadByte()
			if err != nil {
				donec <- err
				return
			}
			bytec <- b
		}
	}()
	for {
		var err error
		line := []byte{}
		for {
			brk := false
			select {
			case b := <-bytec:
				brk = b == '\n'
				if !brk {
					line = append(line, b)
				}
			case err = <-donec:
				brk = true
			case <-time.After(flush):
				if len(line) > 0 {
					brk = true
				}
			}
			if brk {
				break
			}
		}
		if err != nil && err != io.EOF {
			return
		}
		if err == io.EOF && len(line) == 0 {
			return
		}
		out <- string(line)
		if err == io.EOF {
			return
		}
	}
}

// ok: the same with the error kept across lines: any error ends the
// loop, so on the timer's path it is still nil.
func readLinesKept(r io.Reader, flush time.Duration, emit func(string)) {
	buf := bufio.NewReader(r)
	bytec := make(chan byte)
	donec := make(chan error)
	go func() {
		for {
			b, err := buf.ReadByte()
			if err != nil {
				donec <- err
				return
			}
			bytec <- b
		}
	}()
	var err error
	for {
		line := []byte{}
		for {
			brk := false
			select {
			case b := <-bytec:
				line = append(line, b)
				brk = b == '\n'
			case err = <-donec:
				brk = true
			case <-time.After(flush):
				brk = true
			}
			if brk {
				break
			}
		}
		if err != nil && err != io.EOF {
			break
		}
		emit(string(line))
		if err == io.EOF {
			break
		}
	}
}

var errStalled = errors.New("reader stalled")

// The twin whose timer case gives up: it sets err, the loop returns,
// and the reader is left with a byte (or its error) to send.
func readLinesStalled(r io.Reader, stall time.Duration, emit func(string)) error {
	buf := bufio.NewReader(r)
	bytec := make(chan byte)
	donec := make(chan error)
	go func() {
		for {
			b, err := buf.ReadByte()
			if err != nil {
				donec <- err // want `send on unbuffered donec blocks forever once the receiver leaves \(case <-time.After\(stall\) at flushtimer.go:\d+\)`
				return
			}
			bytec <- b // want `send on bytec blocks forever once the receiver stops receiving \(case <-time.After\(stall\) at flushtimer.go:\d+\)`
		}
	}()
	for {
		var err error
		line := []byte{}
		for {
			brk := false
			select {
			case b := <-bytec:
				brk = b == '\n'
				if !brk {
					line = append(line, b)
				}
			case err = <-donec:
				brk = true
			case <-time.After(stall):
				err, brk = errStalled, true
			}
			if brk {
				break
			}
		}
		if err != nil && err != io.EOF {
			return err
		}
		emit(string(line))
		if err == io.EOF {
			return nil
		}
	}
}
