package tested_test

import (
	"testing"
	"time"

	"example.com/robust/tested"
)

// TestDouble gives up after a second, leaving its worker's send stranded.
func TestDouble(t *testing.T) {
	got := make(chan int)
	go func() { got <- tested.Double(2) }()
	select {
	case v := <-got:
		if v != 4 {
			t.Errorf("Double(2) = %d", v)
		}
	case <-time.After(time.Second):
	}
}
