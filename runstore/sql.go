package runstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dialect is what differs between the SQL backends.
type dialect struct {
	name string
	blob string // the column type of bytes
	// dollar numbers placeholders ($1, $2, …) instead of ?.
	dollar bool
	// busy reports an error that a retry of the transaction may not get
	// (a serialization failure, a unique violation between two claims).
	busy func(error) bool
}

// sqlStore is a Store over database/sql.
type sqlStore struct {
	db   *sql.DB
	d    dialect
	opts Options
	now  func() time.Time

	mu        sync.Mutex
	lastSweep time.Time
	queries   map[string]string
	stmts     map[string]*sql.Stmt // prepared once per query, on every connection
	sizes     map[Lease]int64      // bytes of the runs claimed here

	stop context.CancelFunc // ends background work
	bg   sync.WaitGroup
}

// background runs f until Close.
func (s *sqlStore) background(f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop = cancel
	s.bg.Go(func() { f(ctx) })
}

func newSQLStore(ctx context.Context, db *sql.DB, d dialect, opts Options) (*sqlStore, error) {
	s := &sqlStore{db: db, d: d, opts: opts, now: time.Now, queries: map[string]string{}, stmts: map[string]*sql.Stmt{}, sizes: map[Lease]int64{}}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// schema is the store's tables; times are Unix milliseconds. A run's
// entries are its subcalls (seq ≥ 1) and its trace chunks (seq -1, -2, …
// in the order written), so that one statement writes both.
const schema = `
CREATE TABLE IF NOT EXISTS ptc_runs (
	id TEXT PRIMARY KEY,
	finished INTEGER NOT NULL DEFAULT 0,
	token BIGINT NOT NULL,
	lease_until BIGINT NOT NULL,
	expires BIGINT NOT NULL,
	size BIGINT NOT NULL DEFAULT 0,
	chunks BIGINT NOT NULL DEFAULT 0,
	header BLOBTYPE,
	result BLOBTYPE
);
CREATE TABLE IF NOT EXISTS ptc_entries (
	run_id TEXT NOT NULL,
	seq BIGINT NOT NULL,
	settled INTEGER NOT NULL,
	data BLOBTYPE NOT NULL,
	PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS ptc_once (
	key TEXT PRIMARY KEY,
	expires BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS ptc_secrets (
	name TEXT PRIMARY KEY,
	value BLOBTYPE NOT NULL
);
CREATE INDEX IF NOT EXISTS ptc_once_expires ON ptc_once (expires)`

func (s *sqlStore) migrate(ctx context.Context) error {
	for _, stmt := range strings.Split(strings.ReplaceAll(schema, "BLOBTYPE", s.d.blob), ";") {
		if _, err := s.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("runstore: %s: create tables: %w", s.d.name, err)
		}
	}
	return nil
}

// q is query with the dialect's placeholders.
func (s *sqlStore) q(query string) string {
	if !s.d.dollar {
		return query
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if out, ok := s.queries[query]; ok {
		return out
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	s.queries[query] = b.String()
	return b.String()
}

// exec and query run query in tx as a statement prepared once: compiling
// SQL costs more than running it.
func (s *sqlStore) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
}

func (s *sqlStore) queryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	st, err := s.prepared(ctx, query)
	if err != nil {
		// A Row carrying the error: QueryRowContext of a query that cannot
		// be prepared fails the same way when scanned.
		return tx.QueryRowContext(ctx, s.q(query), args...)
	}
	return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
}

func (s *sqlStore) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	q := s.q(query)
	s.mu.Lock()
	st := s.stmts[q]
	s.mu.Unlock()
	if st != nil {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old := s.stmts[q]; old != nil {
		st.Close()
		return old, nil
	}
	s.stmts[q] = st
	return st, nil
}

// tx runs f in a transaction, again while the database says a retry may
// succeed.
func (s *sqlStore) tx(ctx context.Context, f func(*sql.Tx) error) error {
	for attempt := 0; ; attempt++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("runstore: %s: %w", s.d.name, err)
		}
		err = f(tx)
		if err == nil {
			err = tx.Commit()
		} else {
			_ = tx.Rollback()
		}
		if err != nil && attempt < 10 && s.d.busy(err) && ctx.Err() == nil {
			time.Sleep(time.Duration(attempt+1) * 5 * time.Millisecond)
			continue
		}
		return err
	}
}

func ms(t time.Time) int64 { return t.UnixMilli() }

// sweep deletes what expired, at most once a minute.
func (s *sqlStore) sweep(ctx context.Context) {
	now := s.now()
	s.mu.Lock()
	due := now.Sub(s.lastSweep) >= time.Minute
	if due {
		s.lastSweep = now
	}
	s.mu.Unlock()
	if !due {
		return
	}
	_ = s.tx(ctx, func(tx *sql.Tx) error {
		t := ms(now)
		gone := `SELECT id FROM ptc_runs WHERE expires < ? AND (finished = 1 OR lease_until < ?)`
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM ptc_entries WHERE run_id IN (`+gone+`)`), t, t); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM ptc_runs WHERE expires < ? AND (finished = 1 OR lease_until < ?)`), t, t); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q(`DELETE FROM ptc_once WHERE expires < ?`), t)
		return err
	})
}

// Claim implements Store.
func (s *sqlStore) Claim(ctx context.Context, id string, lease time.Duration) (Claim, error) {
	s.sweep(ctx)
	var c Claim
	err := s.tx(ctx, func(tx *sql.Tx) error {
		c = Claim{}
		now := s.now()
		t := ms(now)
		var finished int
		var token, until, expires int64
		err := s.queryRow(ctx, tx, `SELECT finished, token, lease_until, expires FROM ptc_runs WHERE id = ?`+s.forUpdate(), id).
			Scan(&finished, &token, &until, &expires)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case expires < t && (finished == 1 || until < t):
			// Expired: as if it were not there.
			if err := s.deleteRun(ctx, tx, id); err != nil {
				return err
			}
		case finished == 1:
			c.Status = StatusFinished
			c.Run, err = s.load(ctx, tx, id)
			return err
		case until >= t:
			c.Status, c.HeldUntil = StatusHeld, time.UnixMilli(until)
			c.Run = &Run{ID: id}
			return tx.QueryRowContext(ctx, s.q(`SELECT header FROM ptc_runs WHERE id = ?`), id).Scan(&c.Run.Header)
		default:
			res, err := tx.ExecContext(ctx, s.q(`UPDATE ptc_runs SET token = token + 1, lease_until = ?, expires = ? WHERE id = ? AND token = ?`),
				ms(now.Add(lease)), ms(now.Add(s.opts.Expire)), id, token)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return errRetry
			}
			c.Status, c.Lease = StatusResumed, Lease{Run: id, Token: token + 1}
			c.Run, err = s.load(ctx, tx, id)
			return err
		}
		res, err := s.exec(ctx, tx, `INSERT INTO ptc_runs (id, finished, token, lease_until, expires) VALUES (?, 0, 1, ?, ?) ON CONFLICT (id) DO NOTHING`,
			id, ms(now.Add(lease)), ms(now.Add(s.opts.Expire)))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errRetry // another process claimed it first
		}
		c.Status, c.Lease = StatusNew, Lease{Run: id, Token: 1}
		return nil
	})
	if err != nil {
		return Claim{}, fmt.Errorf("runstore: %s: claim %q: %w", s.d.name, id, err)
	}
	switch c.Status {
	case StatusNew:
		s.mu.Lock()
		s.sizes[c.Lease] = 0
		s.mu.Unlock()
	case StatusResumed:
		s.mu.Lock()
		s.sizes[c.Lease] = c.Run.Bytes
		s.mu.Unlock()
	}
	return c, nil
}

// errRetry makes tx run its function again: the row changed under it.
var errRetry = errors.New("the run changed during the claim")

// forShare locks the row a write reads its token from, where the
// database needs it: a takeover waits until the write commits.
func (s *sqlStore) forShare() string {
	if s.d.dollar {
		return " FOR SHARE"
	}
	return ""
}

// forUpdate locks the row read in a claim, where the database needs it.
func (s *sqlStore) forUpdate() string {
	if s.d.dollar {
		return " FOR UPDATE"
	}
	return ""
}

func (s *sqlStore) deleteRun(ctx context.Context, tx *sql.Tx, id string) error {
	for _, q := range []string{`DELETE FROM ptc_entries WHERE run_id = ?`, `DELETE FROM ptc_runs WHERE id = ?`} {
		if _, err := tx.ExecContext(ctx, s.q(q), id); err != nil {
			return err
		}
	}
	return nil
}

// Write implements Store. A write that neither opens nor finishes the run
// (calls and trace chunks: one per subcall) does not touch the run's row:
// it reads the fencing token under a lock that keeps a takeover out until
// it commits, and inserts its entries in one statement; the run's size is
// counted in this process (the lease's) and stored at renewals.
func (s *sqlStore) Write(ctx context.Context, l Lease, w Write) error {
	size := int64(len(w.Header) + len(w.Trace) + len(w.Result))
	for _, e := range w.Calls {
		size += int64(len(e.Data))
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var finished int
		var token, stored int64
		err := s.queryRow(ctx, tx, `SELECT finished, token, size FROM ptc_runs WHERE id = ?`+s.forShare(), l.Run).Scan(&finished, &token, &stored)
		if errors.Is(err, sql.ErrNoRows) || (err == nil && (token != l.Token || finished == 1)) {
			return ErrLost
		}
		if err != nil {
			return err
		}
		total := s.written(l, stored) + size
		if total > s.opts.MaxRunBytes {
			return fmt.Errorf("%w: %d bytes, over %d", ErrTooLarge, total, s.opts.MaxRunBytes)
		}
		// One statement for every entry: a call's last entry in w wins.
		var rows []any
		last := map[int]int{}
		for _, e := range w.Calls {
			settled := 0
			if e.Settled {
				settled = 1
			}
			if i, ok := last[e.Seq]; ok {
				rows[i+2], rows[i+3] = settled, e.Data
				continue
			}
			last[e.Seq] = len(rows)
			rows = append(rows, l.Run, e.Seq, settled, e.Data)
		}
		if w.Trace != nil {
			// Trace chunks are numbered -1, -2, … in the order written.
			var lowest int64
			if err := s.queryRow(ctx, tx, `SELECT COALESCE(MIN(seq), 0) FROM ptc_entries WHERE run_id = ? AND seq < 0`, l.Run).Scan(&lowest); err != nil {
				return err
			}
			rows = append(rows, l.Run, lowest-1, 0, w.Trace)
		}
		if len(rows) > 0 {
			values := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", len(rows)/4), ", ")
			if _, err := s.exec(ctx, tx, `INSERT INTO ptc_entries (run_id, seq, settled, data) VALUES `+values+` ON CONFLICT (run_id, seq) DO UPDATE SET settled = excluded.settled, data = excluded.data`, rows...); err != nil {
				return err
			}
		}
		if w.Header != nil || w.Result != nil {
			set, args := `size = ?, expires = ?`, []any{total, ms(s.now().Add(s.opts.Expire))}
			if w.Header != nil {
				set += `, header = ?`
				args = append(args, w.Header)
			}
			if w.Result != nil {
				set += `, result = ?, finished = 1, lease_until = 0`
				args = append(args, w.Result)
			}
			if _, err := s.exec(ctx, tx, `UPDATE ptc_runs SET `+set+` WHERE id = ?`, append(args, l.Run)...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, ErrLost) || errors.Is(err, ErrTooLarge) {
			return fmt.Errorf("run %q: %w", l.Run, err)
		}
		return fmt.Errorf("runstore: %s: write run %q: %w", s.d.name, l.Run, err)
	}
	s.count(l, size, w.Result != nil)
	return nil
}

// written is how many bytes run l.Run holds: this process's count for the
// lease, else what the store says.
func (s *sqlStore) written(l Lease, stored int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := s.sizes[l]; ok {
		return n
	}
	return stored
}

// count adds n bytes to the lease's count (forgotten once the run is
// finished).
func (s *sqlStore) count(l Lease, n int64, done bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if done {
		delete(s.sizes, l)
		return
	}
	if _, ok := s.sizes[l]; !ok {
		return // not claimed here: the row's size is read each time
	}
	s.sizes[l] += n
}

// Renew implements Store.
func (s *sqlStore) Renew(ctx context.Context, l Lease, lease time.Duration) error {
	s.mu.Lock()
	size, counted := s.sizes[l]
	if lease <= 0 {
		delete(s.sizes, l)
	}
	s.mu.Unlock()
	now := s.now()
	until := ms(now.Add(lease))
	if lease <= 0 {
		until = 0 // released: the next Claim resumes it
	}
	q, args := `UPDATE ptc_runs SET lease_until = ?, expires = ? WHERE id = ? AND token = ? AND finished = 0`, []any{until, ms(now.Add(s.opts.Expire)), l.Run, l.Token}
	if counted {
		q, args = `UPDATE ptc_runs SET lease_until = ?, expires = ?, size = ? WHERE id = ? AND token = ? AND finished = 0`, []any{until, ms(now.Add(s.opts.Expire)), size, l.Run, l.Token}
	}
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, q, args...)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	switch {
	case err != nil:
		return fmt.Errorf("runstore: %s: renew run %q: %w", s.d.name, l.Run, err)
	case n != 1:
		return fmt.Errorf("run %q: %w", l.Run, ErrLost)
	}
	return nil
}

// Load implements Store.
func (s *sqlStore) Load(ctx context.Context, id string) (*Run, error) {
	var r *Run
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		r, err = s.load(ctx, tx, id)
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	if err != nil {
		return nil, fmt.Errorf("runstore: %s: load run %q: %w", s.d.name, id, err)
	}
	return r, nil
}

func (s *sqlStore) load(ctx context.Context, tx *sql.Tx, id string) (*Run, error) {
	r := &Run{ID: id}
	if err := tx.QueryRowContext(ctx, s.q(`SELECT header, result, size FROM ptc_runs WHERE id = ?`), id).Scan(&r.Header, &r.Result, &r.Bytes); err != nil {
		return nil, err
	}
	// Trace chunks first (seq -1, -2, …: written in that order), then calls.
	rows, err := tx.QueryContext(ctx, s.q(`SELECT seq, settled, data FROM ptc_entries WHERE run_id = ? ORDER BY seq`), id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var trace [][]byte
	for rows.Next() {
		var e Entry
		var settled int
		if err := rows.Scan(&e.Seq, &settled, &e.Data); err != nil {
			return nil, err
		}
		if e.Seq < 0 {
			trace = append(trace, e.Data)
			continue
		}
		e.Settled = settled == 1
		r.Calls = append(r.Calls, e)
	}
	slices.Reverse(trace)
	r.Trace = trace
	return r, rows.Err()
}

// Once implements Store.
func (s *sqlStore) Once(ctx context.Context, key string, keep time.Duration) (bool, error) {
	if keep <= 0 {
		keep = s.opts.Expire
	}
	var first bool
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q(`INSERT INTO ptc_once (key, expires) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`), key, ms(s.now().Add(keep)))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("runstore: %s: once: %w", s.d.name, err)
	}
	return first, nil
}

// Secret implements Store.
func (s *sqlStore) Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error) {
	var v []byte
	err := s.db.QueryRowContext(ctx, s.q(`SELECT value FROM ptc_secrets WHERE name = ?`), name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("runstore: %s: secret %q: %w", s.d.name, name, err)
	}
	made, err := make()
	if err != nil {
		return nil, fmt.Errorf("runstore: secret %q: %w", name, err)
	}
	if _, err := s.db.ExecContext(ctx, s.q(`INSERT INTO ptc_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`), name, made); err != nil {
		return nil, fmt.Errorf("runstore: %s: secret %q: %w", s.d.name, name, err)
	}
	// Another process may have made it first: its bytes win.
	if err := s.db.QueryRowContext(ctx, s.q(`SELECT value FROM ptc_secrets WHERE name = ?`), name).Scan(&v); err != nil {
		return nil, fmt.Errorf("runstore: %s: secret %q: %w", s.d.name, name, err)
	}
	return v, nil
}

// Stats implements Store.
func (s *sqlStore) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(1 - finished), 0), COALESCE(SUM(size), 0) FROM ptc_runs`).Scan(&st.Runs, &st.Running, &st.Bytes)
	if err != nil {
		return Stats{}, fmt.Errorf("runstore: %s: stats: %w", s.d.name, err)
	}
	return st, nil
}

// Close implements Store.
func (s *sqlStore) Close() error {
	if s.stop != nil {
		s.stop()
		s.bg.Wait()
	}
	s.mu.Lock()
	for _, st := range s.stmts {
		st.Close()
	}
	s.stmts = nil
	s.mu.Unlock()
	return s.db.Close()
}
