package quickjs

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// inputRoots are the build's inputs beside this package (make
// guest-inputs lists the same).
var inputRoots = []string{"build.sh", "csrc", "intl", "unicode"}

// inputModules are the Go modules the Intl bundler imports: their versions
// in go.mod are inputs too.
var inputModules = []string{"github.com/evanw/esbuild", "golang.org/x/text"}

// TestInputs holds the committed guest to the inputs it was built from:
// inputs.sha256, which make guest writes with the guest, must list every
// input file with its digest as it is now, and the bundler's module
// versions. A change to the inputs without the rebuilt guest fails here,
// without a toolchain; make guest-check (CI) rebuilds and compares the
// guest itself.
func TestInputs(t *testing.T) {
	want, err := os.ReadFile("inputs.sha256")
	if err != nil {
		t.Fatal(err)
	}
	got, err := inputs("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	wantLines, gotLines := strings.Split(string(want), "\n"), strings.Split(got, "\n")
	for _, l := range gotLines {
		if !slices.Contains(wantLines, l) {
			t.Errorf("now:      %s", l)
		}
	}
	for _, l := range wantLines {
		if !slices.Contains(gotLines, l) {
			t.Errorf("recorded: %s", l)
		}
	}
	t.Error("the guest's inputs are not those the committed guest was built from: run make guest and commit the rebuilt guest with them")
}

// inputs returns what make guest-inputs writes: sha256sum's line for
// every file under inputRoots (node_modules left out) in byte order, then
// "module PATH VERSION" for each of inputModules as goMod requires it.
func inputs(goMod string) (string, error) {
	var files []string
	for _, root := range inputRoots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return fs.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, filepath.ToSlash(p))
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	slices.Sort(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), f)
	}
	mod, err := os.Open(goMod)
	if err != nil {
		return "", err
	}
	defer mod.Close()
	versions := map[string]string{}
	for sc := bufio.NewScanner(mod); sc.Scan(); {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(f) >= 2 && slices.Contains(inputModules, f[0]) {
			versions[f[0]] = f[1]
		}
	}
	for _, m := range inputModules {
		if versions[m] == "" {
			return "", fmt.Errorf("%s does not require %s", goMod, m)
		}
		fmt.Fprintf(&b, "module %s %s\n", m, versions[m])
	}
	return b.String(), nil
}
