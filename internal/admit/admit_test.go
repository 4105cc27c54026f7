package admit

import (
	"context"
	"testing"
	"time"
)

// admittedSoon reports whether enter(seq) returns true within a short wait.
func admittedSoon(o *Queue, seq int, serial bool) <-chan bool {
	ch := make(chan bool, 1)
	go func() { ch <- o.Enter(context.Background(), seq, serial) }()
	return ch
}

func requireAdmitted(t *testing.T, ch <-chan bool, want bool, what string) {
	t.Helper()
	select {
	case ok := <-ch:
		if !want || !ok {
			t.Fatalf("%s: admitted %v, want it to wait", what, ok)
		}
	case <-time.After(50 * time.Millisecond):
		if want {
			t.Fatalf("%s: still waiting", what)
		}
	}
}

func TestQueue(t *testing.T) {
	o := New(2)
	// Sequential calls, each in its turn: admitted at once.
	for seq := 1; seq <= 3; seq++ {
		if !o.Enter(context.Background(), seq, false) {
			t.Fatal("refused")
		}
		o.Leave()
	}
	// Two parallel calls run together; a third waits for the limit; a
	// serial call after them waits until all three finished; a call
	// issued after the serial one waits for it.
	requireAdmitted(t, admittedSoon(o, 4, false), true, "4")
	requireAdmitted(t, admittedSoon(o, 5, false), true, "5")
	six := admittedSoon(o, 6, false)
	requireAdmitted(t, six, false, "6 over the limit")
	seven := admittedSoon(o, 7, true)
	eight := admittedSoon(o, 8, false)
	o.Leave()
	requireAdmitted(t, six, true, "6 once 4 finished")
	requireAdmitted(t, seven, false, "serial 7 while 5 and 6 run")
	o.Leave()
	o.Leave()
	requireAdmitted(t, seven, true, "serial 7 once alone")
	requireAdmitted(t, eight, false, "8 while serial 7 runs")
	o.Leave()
	requireAdmitted(t, eight, true, "8 after 7")
	o.Leave()
	// A call out of turn waits for the one before it; a skipped turn
	// passes.
	ten := admittedSoon(o, 10, false)
	requireAdmitted(t, ten, false, "10 before 9")
	o.Skip(9)
	requireAdmitted(t, ten, true, "10 after 9 was skipped")
	o.Leave()
	// A cancelled wait passes its turn.
	ctx, cancel := context.WithCancel(context.Background())
	requireAdmitted(t, admittedSoon(o, 11, true), true, "11")
	done := make(chan bool)
	go func() { done <- o.Enter(ctx, 12, false) }()
	thirteen := admittedSoon(o, 13, false)
	cancel()
	if <-done {
		t.Fatal("a cancelled call was admitted")
	}
	o.Leave()
	requireAdmitted(t, thirteen, true, "13 after 12 gave up its turn")
	o.Leave()
}
