package mcp

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"golang.org/x/time/rate"
)

// quota holds one principal's run quotas: runs in flight and runs per
// minute. It is checked when a run_code call arrives over HTTP, before the
// SDK or the executor sees it, so a flooding principal costs the others
// only the refusal.
type quota struct {
	name       string
	concurrent int           // 0: unbounded
	rate       *rate.Limiter // nil: unbounded
	perMinute  int

	mu       sync.Mutex
	inFlight int
}

func newQuota(name string, l PrincipalLimits) *quota {
	q := &quota{name: name, concurrent: l.ConcurrentRuns, perMinute: l.RunsPerMinute}
	if l.RunsPerMinute > 0 {
		// A bucket of a minute's runs, refilled at the rate.
		q.rate = rate.NewLimiter(rate.Limit(float64(l.RunsPerMinute)/60), l.RunsPerMinute)
	}
	return q
}

// acquire admits a run, returning its release, or says why not and when
// to retry.
func (q *quota) acquire(now time.Time) (release func(), retry time.Duration, why string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.concurrent > 0 && q.inFlight >= q.concurrent {
		return nil, time.Second, fmt.Sprintf("principal %s has %d runs in flight (concurrentRuns %d)", q.name, q.inFlight, q.concurrent)
	}
	if q.rate != nil {
		r := q.rate.ReserveN(now, 1)
		if d := r.DelayFrom(now); d > 0 {
			r.CancelAt(now)
			return nil, d, fmt.Sprintf("principal %s is over runsPerMinute %d", q.name, q.perMinute)
		}
	}
	q.inFlight++
	var once sync.Once
	return func() {
		once.Do(func() {
			q.mu.Lock()
			q.inFlight--
			q.mu.Unlock()
		})
	}, 0, ""
}

// tooMany answers 429 with Retry-After (whole seconds, at least 1) and a
// JSON-RPC error the client can show.
func tooMany(w http.ResponseWriter, retry time.Duration, why string, id jsonrpc.ID) {
	secs := int(math.Ceil(retry.Seconds()))
	if secs < 1 {
		secs = 1
	}
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	writeRPCError(w, http.StatusTooManyRequests, id, -32000, fmt.Sprintf("Too many requests: %s; retry after %ds", why, secs))
}
