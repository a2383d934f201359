package waitpath

import "testing"

func TestCountArithmetic(t *testing.T) {
	n := Count{Expr: "len(jobs)"}
	for _, tc := range []struct {
		name string
		got  Count
		want string
	}{
		{"one plus one", One.Plus(One), "2"},
		{"zero plus expr", Count{}.Plus(n), "len(jobs)"},
		{"expr plus one", n.Plus(One), "many"},
		{"one per trip", One.Times(n), "len(jobs)"},
		{"two per trip", Count{N: 2}.Times(n), "many"},
		{"constant trips", Count{N: 2}.Times(Count{N: 3}), "6"},
		{"stream", Count{Stream: true}.Plus(One), "a stream"},
		{"none per trip", Count{}.Times(n), "0"},
	} {
		if s := tc.got.String(); s != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, s, tc.want)
		}
	}
	if !(Count{Maybe: true}).IsZero() || !One.Plus(Count{N: 1, Maybe: true}).Maybe {
		t.Error("Maybe: not a count of its own, but sticks to sums")
	}
	for _, tc := range []struct {
		c     Count
		recvd int
		room  int64
		want  bool
	}{
		{One, 0, 0, true},
		{One, 0, 1, false},
		{One, 1, 0, false},
		{Count{N: 3}, 1, 1, true},
		{Count{N: 3}, 1, 2, false},
		{n, 1, 1, true},  // a run-time count is taken to be large,
		{n, 1, 4, false}, // but not larger than a buffer sized for it
		{Count{Stream: true}, 9, 1, true},
		{Count{Stream: true}, 9, 100, false},
	} {
		if got := tc.c.Exceeds(tc.recvd, tc.room); got != tc.want {
			t.Errorf("%v.Exceeds(%d, %d) = %v, want %v", tc.c, tc.recvd, tc.room, got, tc.want)
		}
	}
	endless := Count{Stream: true, Endless: true}
	if !endless.Plus(One).Endless || !One.Plus(endless).Endless || !endless.Times(n).Endless || (Count{Stream: true}).Plus(One).Endless {
		t.Error("Endless: kept by sums and trips of an endless sender, never made up")
	}
	if _, ok := (Count{Many: true}).Source(); ok {
		t.Error("an unnamed count has no source")
	}
}
