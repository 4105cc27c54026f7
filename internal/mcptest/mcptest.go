package mcptest

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Everything returns the command and arguments that start the
// "everything" reference server over stdio. It skips the test, saying
// why, only when node or npm is not installed; an install that fails
// fails the test.
func Everything(t testing.TB) (command string, args []string) {
	t.Helper()
	node, entry := server(t, "server-everything")
	return node, []string{entry, "stdio"}
}

// Filesystem returns the command and arguments that start the reference
// filesystem server over stdio, allowed to read and write under dir.
func Filesystem(t testing.TB, dir string) (command string, args []string) {
	t.Helper()
	node, entry := server(t, "server-filesystem")
	return node, []string{entry, dir}
}

// server returns node and the entry point of the npm package
// @modelcontextprotocol/NAME, installing the pinned packages if needed.
func server(t testing.TB, name string) (node, entry string) {
	t.Helper()
	dir := filepath.Join(Root(t), "mcp", "testdata", "everything")
	entry = filepath.Join(dir, "node_modules", "@modelcontextprotocol", name, "dist", "index.js")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the MCP tests run the npm package @modelcontextprotocol/" + name)
	}
	if _, err := os.Stat(entry); err != nil {
		install(t, dir, entry)
	}
	return node, entry
}

// StartEverythingHTTP starts the "everything" server in its streamable
// HTTP mode on a free loopback port, waits until it listens, and returns
// its MCP endpoint's URL; the server is killed when the test ends.
func StartEverythingHTTP(t testing.TB) (url string) {
	t.Helper()
	node, args := Everything(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(node, args[0], "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
			return "http://127.0.0.1:" + port + "/mcp"
		}
		if time.Now().After(deadline) {
			t.Fatal("the everything server never listened on port " + port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// install runs npm ci in dir, under a lock, so that test binaries run in
// parallel install once.
func install(t testing.TB, dir, entry string) {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: the MCP tests install @modelcontextprotocol/server-everything with it (make mcp-servers)")
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(entry); err == nil {
		return // another test binary installed it meanwhile
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}

// Root returns the repository's root directory: the nearest directory
// above the working directory holding the ptc go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module github.com/ptchost/ptc\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal(errors.New("mcptest: not inside the ptc repository"))
		}
		dir = parent
	}
}
