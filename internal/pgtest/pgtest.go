// Package pgtest starts a throwaway PostgreSQL cluster for a test, from
// Debian's PostgreSQL binaries (scripts/install-postgres.sh installs
// them): initdb in a temporary directory, a server on a free loopback
// port, stopped and removed when the test ends.
package pgtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Bin returns the directory of initdb and pg_ctl: $PTC_POSTGRES_BIN, else
// the newest /usr/lib/postgresql/*/bin holding them; "" when there is none.
func Bin() string {
	if d := os.Getenv("PTC_POSTGRES_BIN"); d != "" {
		return d
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// Options tune the cluster.
type Options struct {
	// Durable keeps fsync on (for benchmarks); tests turn it off.
	Durable bool
}

// Start starts a cluster and returns its URL (database "postgres", user
// "ptc", no password). Without PostgreSQL's binaries the test is skipped,
// saying how to install them, unless PTC_REQUIRE_POSTGRES=1 makes that a
// failure.
func Start(t testing.TB, opts Options) string {
	t.Helper()
	bin := Bin()
	if bin == "" {
		if os.Getenv("PTC_REQUIRE_POSTGRES") == "1" {
			t.Fatal("PostgreSQL is not installed (sh scripts/install-postgres.sh)")
		}
		t.Skip("PostgreSQL is not installed (sh scripts/install-postgres.sh; make test-integration does)")
	}
	dir, err := os.MkdirTemp("", "ptc-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// initdb refuses to run as root: run the cluster as Debian's postgres
	// user then.
	var as []string
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root and there is no postgres user to run PostgreSQL as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		as = []string{"runuser", "-u", "postgres", "--"}
	}
	data := filepath.Join(dir, "data")
	run := func(name string, args ...string) {
		t.Helper()
		argv := append(append(as[:len(as):len(as)], filepath.Join(bin, name)), args...)
		out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	run("initdb", "-D", data, "-U", "ptc", "--auth=trust", "-E", "UTF8", "--no-instructions")
	port := freePort(t)
	serverOpts := []string{"-p " + strconv.Itoa(port), "-h 127.0.0.1", "-k " + dir, "-c max_connections=200"}
	if !opts.Durable {
		serverOpts = append(serverOpts, "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off")
	}
	run("pg_ctl", "-D", data, "-o", strings.Join(serverOpts, " "), "-l", filepath.Join(dir, "log"), "-w", "start")
	t.Cleanup(func() {
		argv := append(append(as[:len(as):len(as)], filepath.Join(bin, "pg_ctl")), "-D", data, "-m", "immediate", "stop")
		_ = exec.Command(argv[0], argv[1:]...).Run()
	})
	return fmt.Sprintf("postgres://ptc@127.0.0.1:%d/postgres?sslmode=disable", port)
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
