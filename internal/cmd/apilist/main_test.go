package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRun: the listing holds every exported name of the public packages
// (not internal ones, tests or unexported names), and -check fails once
// the code and the listing disagree.
func TestRun(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a.go"), "package ptc\n\n// T is a type.\ntype T struct {\n\tA int\n\tb int\n}\n\n// F is a function.\nfunc F(x int) error { return nil }\n\nfunc g() {}\n")
	write(t, filepath.Join(root, "a_test.go"), "package ptc\n\nfunc TestHidden() {}\n")
	write(t, filepath.Join(root, "sub", "s.go"), "package sub\n\n// C is a constant.\nconst C = 1\n")
	write(t, filepath.Join(root, "internal", "x", "x.go"), "package x\n\n// X is internal.\nvar X = 1\n")
	dir := filepath.Join(root, "api")
	if err := run(root, dir, false); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "ptc.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "github.com/ptchost/ptc, func F(x int) error\ngithub.com/ptchost/ptc, type T struct\ngithub.com/ptchost/ptc, type T struct, A int\n"
	if string(got) != want {
		t.Errorf("ptc.txt:\n%s\nwant:\n%s", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub.txt")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "internal-x.txt")); err == nil {
		t.Error("an internal package is listed")
	}
	if err := run(root, dir, true); err != nil {
		t.Errorf("check after write: %v", err)
	}
	write(t, filepath.Join(root, "b.go"), "package ptc\n\n// G is new.\nfunc G() {}\n")
	if err := run(root, dir, true); err == nil || !strings.Contains(err.Error(), "ptc.txt") {
		t.Errorf("check after an API change: %v, want it to name ptc.txt", err)
	}
}
