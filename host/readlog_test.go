package host

import (
	"math/rand/v2"
	"testing"
)

// A readLog gives back the readings it was given, in order, from its own
// first bytes and its chunks alike, and a reader taken from it does not
// change when the log is reset and written again (a run coming back
// reads the last attempt's log while it writes its own).
func TestReadLog(t *testing.T) {
	for _, n := range []int{0, 1, 3, 20, 5000, 100_000} {
		var l readLog
		want := make([]int64, n)
		v := int64(0)
		for i := range want {
			switch i % 3 {
			case 0:
				v += rand.Int64N(300) // a reading in a loop
			case 1:
				v += rand.Int64N(1 << 40) // a reading after a wait
			default:
				v -= rand.Int64N(1000) // the clock never goes back, but the log may
			}
			want[i] = v
			l.add(v)
		}
		r := l.reader()
		l = readLog{}
		for range 50 {
			l.add(rand.Int64())
		}
		for i, w := range want {
			if !r.more() {
				t.Fatalf("n=%d: the log ended after %d readings", n, i)
			}
			if got := r.next(); got != w {
				t.Fatalf("n=%d: reading %d is %d, want %d", n, i, got, w)
			}
		}
		if r.more() {
			t.Fatalf("n=%d: the log has more than was written", n)
		}
	}
}
