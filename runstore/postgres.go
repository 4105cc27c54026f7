package runstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// openPostgres opens the PostgreSQL store at url (a libpq URL), creating
// its tables if missing.
func openPostgres(ctx context.Context, url string, opts Options) (Store, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrURL, redact(url), err)
	}
	db := stdlib.OpenDB(*cfg)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("runstore: postgres: connect to %s: %w", redact(url), err)
	}
	return newSQLStore(ctx, db, dialect{name: "postgres", blob: "BYTEA", dollar: true, busy: postgresBusy}, opts)
}

// postgresBusy reports the errors after which the transaction may
// succeed again: serialization failures, deadlocks, and a unique
// violation between two processes claiming one new run.
func postgresBusy(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "40001", "40P01", "23505":
			return true
		}
	}
	return errors.Is(err, errRetry)
}
