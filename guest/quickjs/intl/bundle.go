//go:build ignore

// Command bundle turns entry.js and the FormatJS polyfills installed in
// node_modules (by build.sh: npm ci) into the guest's Intl script.
//
//	go run guest/quickjs/intl/bundle.go OUT
//
// The script's completion value is a function install(native): evaluating
// the script defines nothing; calling the function installs Intl and the
// toLocale* methods on globalThis. native.collate(a, b, locale, options)
// must return a negative, zero or positive number (host/collate.go).
//
// Output is deterministic: the same sources give the same bytes.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// param is the name the bundle gives install's argument; entry.js refers
// to it as a free variable.
const param = "native"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run guest/quickjs/intl/bundle.go OUT")
		os.Exit(2)
	}
	out, err := bundle(sourceDir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(os.Args[1], out, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
}

// sourceDir is the directory holding entry.js and node_modules: this file's
// own directory, or guest/quickjs/intl under the working directory when
// the binary was built without file paths.
func sourceDir() string {
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if _, err := os.Stat(filepath.Join(filepath.Dir(file), "entry.js")); err == nil {
			return filepath.Dir(file)
		}
	}
	dir, _ := filepath.Abs(filepath.Join("guest", "quickjs", "intl"))
	return dir
}

func bundle(dir string) ([]byte, error) {
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return nil, fmt.Errorf("%s/node_modules is missing: run guest/quickjs/intl/build.sh (npm ci)", dir)
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir: dir,
		EntryPoints:   []string{"entry.js"},
		Bundle:        true,
		Write:         false,
		// ESM output of an entry without exports is plain statements,
		// which become install's body below.
		Format:            api.FormatESModule,
		Platform:          api.PlatformNeutral,
		Target:            api.ES2022,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelWarning,
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild:\n%s", strings.Join(msgs, ""))
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("esbuild wrote %d files, want 1", len(res.OutputFiles))
	}
	body := strings.TrimSpace(string(res.OutputFiles[0].Contents))
	if strings.Contains(body, "import(") || strings.HasPrefix(body, "import") {
		return nil, fmt.Errorf("the bundle still imports a module")
	}
	// A parenthesised function expression: the script's completion value.
	var b strings.Builder
	b.WriteString("(function install(" + param + "){\"use strict\";")
	b.WriteString(body)
	b.WriteString("\n})\n")
	return []byte(b.String()), nil
}
