package runstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/driver" // the "sqlite3" database/sql driver
)

// openSQLite opens (creating) the SQLite store at path: WAL, so that
// readers never wait for a writer; synchronous=NORMAL, so that a commit
// survives the process's crash (not the machine's power loss) without a
// sync per commit; immediate transactions, so that two processes' writes
// wait for each other instead of failing.
func openSQLite(ctx context.Context, path string, opts Options) (Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("runstore: sqlite: %w", err)
	}
	dsn := "file:" + (&url.URL{Path: abs}).EscapedPath() +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(wal)&_pragma=synchronous(normal)&_txlock=immediate"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("runstore: sqlite: open %s: %w", abs, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("runstore: sqlite: open %s: %w", abs, err)
	}
	return newSQLStore(ctx, db, dialect{name: "sqlite", blob: "BLOB", busy: sqliteBusy}, opts)
}

// sqliteBusy reports SQLite's "database is locked" past the busy timeout.
func sqliteBusy(err error) bool {
	return errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED) || errors.Is(err, errRetry)
}
