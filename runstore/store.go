package runstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Errors a caller branches on.
var (
	// ErrLost is returned by a write whose lease is no longer the run's:
	// another process took the run over after the lease expired. The
	// process that gets it must stop driving the run.
	ErrLost = errors.New("runstore: the run's lease was lost to another process")
	// ErrTooLarge is returned by a write that would take the run's stored
	// data over Options.MaxRunBytes.
	ErrTooLarge = errors.New("runstore: the run's stored data is over its cap")
	// ErrNotFound is returned by Load for a run the store does not hold
	// (never claimed, or expired).
	ErrNotFound = errors.New("runstore: no such run")
	// ErrURL is matched by Open's error for a URL it cannot open.
	ErrURL = errors.New("runstore: unsupported store URL")
)

// Defaults of [Options].
const (
	// DefaultMaxRunBytes caps one run's stored data.
	DefaultMaxRunBytes = 64 << 20
	// DefaultExpire is how long a finished run, or one nobody drives,
	// stays in the store after its last write.
	DefaultExpire = 24 * time.Hour
)

// Options configure a store ([OpenWith]).
type Options struct {
	// MaxRunBytes caps the bytes written for one run; zero means
	// DefaultMaxRunBytes.
	MaxRunBytes int64
	// Expire is how long a run stays after its last write once it is
	// finished or its lease has lapsed, and how long a [Store.Once] key is
	// remembered by default; zero means DefaultExpire.
	Expire time.Duration
}

// A Lease is the right to drive one run: its ID and the fencing token
// every write carries.
type Lease struct {
	Run   string
	Token int64
}

// Status is what [Store.Claim] found.
type Status int

const (
	// StatusNew: the run was not in the store; the caller now drives it.
	StatusNew Status = iota + 1
	// StatusResumed: the run's last lease lapsed (its process stopped);
	// the caller took it over and drives it from Claim.Run.
	StatusResumed
	// StatusFinished: the run has a final result (Claim.Run.Result).
	StatusFinished
	// StatusHeld: another process drives the run, with a lease until
	// Claim.HeldUntil.
	StatusHeld
)

// A Claim is the answer of [Store.Claim].
type Claim struct {
	Status Status
	// Lease is the caller's lease, for StatusNew and StatusResumed.
	Lease Lease
	// Run is what the store holds, for StatusResumed and StatusFinished
	// (for StatusHeld, its Header only).
	Run *Run
	// HeldUntil is when another process's lease lapses, for StatusHeld.
	HeldUntil time.Time
}

// A Run is what the store holds of one run.
type Run struct {
	ID string
	// Header is what the first write gave (Write.Header).
	Header []byte
	// Calls are the subcalls in Seq order: started, or settled.
	Calls []Entry
	// Trace are the trace chunks in the order they were written.
	Trace [][]byte
	// Result is the final result; nil while the run goes on.
	Result []byte
	// Bytes counts the bytes written for the run (as of the last renewal
	// of a run in progress).
	Bytes int64
}

// An Entry is one subcall as stored: started (dispatched, its outcome
// unknown) or settled (its outcome in Data).
type Entry struct {
	Seq     int
	Settled bool
	Data    []byte
}

// A Write is what one transaction adds to a run: all of it or none.
type Write struct {
	// Header, when set, replaces the run's header.
	Header []byte
	// Calls are started or settled subcalls; an entry replaces the one of
	// the same Seq.
	Calls []Entry
	// Trace, when set, is appended as the run's next trace chunk.
	Trace []byte
	// Result, when set, is the run's final result: the run is finished
	// and the lease ends.
	Result []byte
}

// Stats describe what a store holds.
type Stats struct {
	// Runs counts the runs held; Running those without a final result.
	Runs, Running int64
	// Bytes sums the bytes written for the runs held (as of their last
	// renewal, for runs in progress).
	Bytes int64
}

// A Store keeps runs across processes. Its methods are safe for
// concurrent use, by many processes sharing the database.
type Store interface {
	// Claim takes run id for the caller with a lease of the given length
	// when nobody drives it (new, or its lease lapsed), and says what it
	// found otherwise.
	Claim(ctx context.Context, id string, lease time.Duration) (Claim, error)
	// Write adds w to the run under lease l, all of it or none; it fails
	// with ErrLost when l is no longer the run's (another process took the
	// run over, or it is finished), and with ErrTooLarge past
	// Options.MaxRunBytes. A write does not renew the lease.
	Write(ctx context.Context, l Lease, w Write) error
	// Renew extends lease l by the given length from now, or, for zero or
	// less, releases it: the next Claim resumes the run. It fails with
	// ErrLost when l is no longer the run's. A driver renews well within
	// the lease's length (a third of it).
	Renew(ctx context.Context, l Lease, lease time.Duration) error
	// Load returns what the store holds of run id (ErrNotFound if none).
	Load(ctx context.Context, id string) (*Run, error)
	// Once reports whether key is used for the first time, fleet-wide,
	// and remembers it for keep (zero: Options.Expire).
	Once(ctx context.Context, key string, keep time.Duration) (bool, error)
	// Secret returns the secret named name, made by make on first use;
	// every process sharing the store gets the same bytes.
	Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error)
	// Stats describes what the store holds.
	Stats(ctx context.Context) (Stats, error)
	// Close releases the store's connections.
	Close() error
}

// Open opens the store at url: "sqlite:PATH" (created if missing) or a
// PostgreSQL URL ("postgres://…" or "postgresql://…"), with default
// Options.
func Open(ctx context.Context, url string) (Store, error) {
	return OpenWith(ctx, url, Options{})
}

// OpenWith is Open with options.
func OpenWith(ctx context.Context, url string, opts Options) (Store, error) {
	if opts.MaxRunBytes <= 0 {
		opts.MaxRunBytes = DefaultMaxRunBytes
	}
	if opts.Expire <= 0 {
		opts.Expire = DefaultExpire
	}
	switch {
	case strings.HasPrefix(url, "sqlite:"):
		path := strings.TrimPrefix(url, "sqlite:")
		path = strings.TrimPrefix(path, "//")
		if path == "" {
			return nil, fmt.Errorf("%w: %q names no file (sqlite:PATH)", ErrURL, url)
		}
		return openSQLite(ctx, path, opts)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return openPostgres(ctx, url, opts)
	}
	return nil, fmt.Errorf("%w: %q (want sqlite:PATH or postgres://…)", ErrURL, redact(url))
}

// redact drops a URL's password for an error message.
func redact(url string) string {
	at := strings.LastIndex(url, "@")
	scheme := strings.Index(url, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return url
	}
	if c := strings.Index(url[scheme+3:at], ":"); c >= 0 {
		return url[:scheme+3+c] + ":xxxxx" + url[at:]
	}
	return url
}
