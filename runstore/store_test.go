package runstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a settable time for the stores under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func openSQLiteTest(t testing.TB, opts Options) Store {
	t.Helper()
	s, err := OpenWith(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "runs.db"), opts)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStore_sqlite(t *testing.T) {
	testStore(t, func(t *testing.T, opts Options) Store { return openSQLiteTest(t, opts) })
}

// testStore is the behaviour every backend must have.
func testStore(t *testing.T, open func(*testing.T, Options) Store) {
	ctx := context.Background()
	withClock := func(t *testing.T, opts Options) (Store, *clock) {
		s := open(t, opts)
		c := &clock{t: time.Unix(1_800_000_000, 0)}
		s.(*sqlStore).now = c.now
		return s, c
	}
	t.Run("lifecycle", func(t *testing.T) {
		s, _ := withClock(t, Options{})
		c, err := s.Claim(ctx, "r1", 10*time.Second)
		require.NoError(t, err)
		require.Equal(t, StatusNew, c.Status)
		l := c.Lease
		require.NoError(t, s.Write(ctx, l, Write{Header: []byte("head"), Calls: []Entry{{Seq: 1, Data: []byte("start 1")}, {Seq: 2, Data: []byte("start 2")}}, Trace: []byte("t1")}))
		require.NoError(t, s.Write(ctx, l, Write{Calls: []Entry{{Seq: 1, Settled: true, Data: []byte("done 1")}}, Trace: []byte("t2")}))
		r, err := s.Load(ctx, "r1")
		require.NoError(t, err)
		assert.Equal(t, []byte("head"), r.Header)
		assert.Equal(t, []Entry{{Seq: 1, Settled: true, Data: []byte("done 1")}, {Seq: 2, Data: []byte("start 2")}}, r.Calls)
		assert.Equal(t, [][]byte{[]byte("t1"), []byte("t2")}, r.Trace)
		assert.Nil(t, r.Result)

		again, err := s.Claim(ctx, "r1", 10*time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusHeld, again.Status)
		assert.Equal(t, []byte("head"), again.Run.Header)

		require.NoError(t, s.Write(ctx, l, Write{Result: []byte("result")}))
		fin, err := s.Claim(ctx, "r1", 10*time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusFinished, fin.Status)
		assert.Equal(t, []byte("result"), fin.Run.Result)
		assert.ErrorIs(t, s.Write(ctx, l, Write{Trace: []byte("late")}), ErrLost, "a finished run takes no more writes")

		st, err := s.Stats(ctx)
		require.NoError(t, err)
		assert.Equal(t, Stats{Runs: 1, Running: 0, Bytes: int64(len("head") + len("start 1") + len("start 2") + len("t1") + len("done 1") + len("t2") + len("result"))}, st)
	})
	t.Run("takeover fences the old lease", func(t *testing.T) {
		s, clk := withClock(t, Options{})
		c, err := s.Claim(ctx, "r", 10*time.Second)
		require.NoError(t, err)
		old := c.Lease
		require.NoError(t, s.Write(ctx, old, Write{Header: []byte("h"), Calls: []Entry{{Seq: 1, Data: []byte("s1")}}}))
		clk.add(9 * time.Second)
		held, err := s.Claim(ctx, "r", 10*time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusHeld, held.Status, "the lease has a second left")
		clk.add(2 * time.Second)
		taken, err := s.Claim(ctx, "r", 10*time.Second)
		require.NoError(t, err)
		require.Equal(t, StatusResumed, taken.Status)
		assert.Greater(t, taken.Lease.Token, old.Token)
		assert.Equal(t, []byte("h"), taken.Run.Header)
		assert.Equal(t, []Entry{{Seq: 1, Data: []byte("s1")}}, taken.Run.Calls)
		err = s.Write(ctx, old, Write{Calls: []Entry{{Seq: 1, Settled: true, Data: []byte("late")}}})
		assert.ErrorIs(t, err, ErrLost)
		r, err := s.Load(ctx, "r")
		require.NoError(t, err)
		assert.Equal(t, []Entry{{Seq: 1, Data: []byte("s1")}}, r.Calls, "the fenced write changed nothing")
		require.NoError(t, s.Write(ctx, taken.Lease, Write{Result: []byte("ok")}))
	})
	t.Run("renew and release", func(t *testing.T) {
		s, clk := withClock(t, Options{})
		c, err := s.Claim(ctx, "r", 10*time.Second)
		require.NoError(t, err)
		require.NoError(t, s.Write(ctx, c.Lease, Write{Header: []byte("h"), Calls: []Entry{{Seq: 1, Data: []byte("12345")}}}))
		for range 5 {
			clk.add(6 * time.Second)
			require.NoError(t, s.Renew(ctx, c.Lease, 10*time.Second))
		}
		held, err := s.Claim(ctx, "r", 10*time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusHeld, held.Status)
		require.NoError(t, s.Renew(ctx, c.Lease, 0))
		taken, err := s.Claim(ctx, "r", 10*time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusResumed, taken.Status, "a released run is resumed at once")
		assert.EqualValues(t, 6, taken.Run.Bytes, "the size stored at the renewal")
		assert.ErrorIs(t, s.Renew(ctx, c.Lease, time.Second), ErrLost)
	})
	t.Run("cap", func(t *testing.T) {
		s, _ := withClock(t, Options{MaxRunBytes: 100})
		c, err := s.Claim(ctx, "r", time.Second)
		require.NoError(t, err)
		require.NoError(t, s.Write(ctx, c.Lease, Write{Header: make([]byte, 60)}))
		err = s.Write(ctx, c.Lease, Write{Calls: []Entry{{Seq: 1, Data: make([]byte, 50)}}})
		assert.ErrorIs(t, err, ErrTooLarge)
		r, err := s.Load(ctx, "r")
		require.NoError(t, err)
		assert.Empty(t, r.Calls, "the refused write added nothing")
		assert.EqualValues(t, 60, r.Bytes)
	})
	t.Run("expiry", func(t *testing.T) {
		s, clk := withClock(t, Options{Expire: time.Hour})
		c, err := s.Claim(ctx, "r", time.Second)
		require.NoError(t, err)
		require.NoError(t, s.Write(ctx, c.Lease, Write{Result: []byte("x")}))
		clk.add(59 * time.Minute)
		fin, err := s.Claim(ctx, "r", time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusFinished, fin.Status)
		clk.add(2 * time.Minute)
		fresh, err := s.Claim(ctx, "r", time.Second)
		require.NoError(t, err)
		assert.Equal(t, StatusNew, fresh.Status, "an expired run is gone")
		first, err := s.Once(ctx, "k", time.Minute)
		require.NoError(t, err)
		assert.True(t, first)
		clk.add(2 * time.Minute)
		_, err = s.Load(ctx, "nope")
		assert.ErrorIs(t, err, ErrNotFound)
	})
	t.Run("once", func(t *testing.T) {
		s, _ := withClock(t, Options{})
		var firsts atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				first, err := s.Once(ctx, "cont-1", 0)
				assert.NoError(t, err)
				if first {
					firsts.Add(1)
				}
			})
		}
		wg.Wait()
		assert.EqualValues(t, 1, firsts.Load())
	})
	t.Run("secret", func(t *testing.T) {
		s, _ := withClock(t, Options{})
		var made atomic.Int32
		mk := func() ([]byte, error) {
			n := made.Add(1)
			return fmt.Appendf(nil, "secret-%d", n), nil
		}
		a, err := s.Secret(ctx, "key", mk)
		require.NoError(t, err)
		b, err := s.Secret(ctx, "key", mk)
		require.NoError(t, err)
		assert.Equal(t, a, b)
		_, err = s.Secret(ctx, "other", func() ([]byte, error) { return nil, errors.New("no entropy") })
		assert.ErrorContains(t, err, "no entropy")
	})
	t.Run("one claim wins", func(t *testing.T) {
		s, clk := withClock(t, Options{})
		for round := range 3 {
			id := fmt.Sprint("race-", round)
			var drivers atomic.Int32
			var wg sync.WaitGroup
			for range 6 {
				wg.Go(func() {
					c, err := s.Claim(ctx, id, time.Second)
					if assert.NoError(t, err) && (c.Status == StatusNew || c.Status == StatusResumed) {
						drivers.Add(1)
					}
				})
			}
			wg.Wait()
			assert.EqualValues(t, 1, drivers.Load(), "one process drives a new run")
			clk.add(2 * time.Second)
			drivers.Store(0)
			for range 6 {
				wg.Go(func() {
					c, err := s.Claim(ctx, id, time.Second)
					if assert.NoError(t, err) && c.Status == StatusResumed {
						drivers.Add(1)
					}
				})
			}
			wg.Wait()
			assert.EqualValues(t, 1, drivers.Load(), "one process takes a lapsed run over")
		}
	})
}

func TestOpen_urls(t *testing.T) {
	ctx := context.Background()
	for _, u := range []string{"mysql://x", "sqlite:", "", "redis://user:pw@host/"} {
		_, err := Open(ctx, u)
		assert.ErrorIs(t, err, ErrURL, u)
		assert.NotContains(t, fmt.Sprint(err), "pw@")
	}
}
