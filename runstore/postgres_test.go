package runstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptchost/ptc/internal/pgtest"
)

func TestStore_postgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster")
	}
	url := pgtest.Start(t, pgtest.Options{})
	var n atomic.Int32
	testStore(t, func(t *testing.T, opts Options) Store {
		// Each subtest its own database, so that their rows never meet.
		ctx := context.Background()
		admin, err := OpenWith(ctx, url, opts)
		require.NoError(t, err)
		db := fmt.Sprint("t", n.Add(1))
		_, err = admin.(*sqlStore).db.ExecContext(ctx, "CREATE DATABASE "+db)
		require.NoError(t, err)
		admin.Close()
		s, err := OpenWith(ctx, replaceDB(url, db), opts)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func replaceDB(url, db string) string {
	return url[:len(url)-len("postgres?sslmode=disable")] + db + "?sslmode=disable"
}
