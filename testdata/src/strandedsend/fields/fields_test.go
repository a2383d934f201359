package fields

import "testing"

func TestHooked(t *testing.T) {
	h := NewHooked()
	go h.Mark(1)
	if v := <-h.seen; v != 1 {
		t.Fatal(v)
	}
}
