package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

const module = "github.com/ptchost/ptc"

func main() {
	dir := flag.String("dir", "api", "the directory holding the listings")
	check := flag.Bool("check", false, "compare the listings with the code instead of writing them")
	root := flag.String("root", ".", "the module's root")
	flag.Parse()
	if err := run(*root, *dir, *check); err != nil {
		fmt.Fprintln(os.Stderr, "apilist:", err)
		os.Exit(1)
	}
}

func run(root, dir string, check bool) error {
	lists, err := listModule(root)
	if err != nil {
		return err
	}
	var stale []string
	for pkg, lines := range lists {
		name := filepath.Join(dir, fileName(pkg))
		want := []byte(strings.Join(lines, "\n") + "\n")
		if check {
			have, err := os.ReadFile(name)
			if err != nil || !bytes.Equal(have, want) {
				stale = append(stale, name)
			}
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, want, 0o644); err != nil {
			return err
		}
	}
	// A listing whose package is gone is stale too.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		found := false
		for pkg := range lists {
			found = found || e.Name() == fileName(pkg)
		}
		if !found {
			if check {
				stale = append(stale, filepath.Join(dir, e.Name()))
			} else if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	if len(stale) > 0 {
		slices.Sort(stale)
		return fmt.Errorf("the public API changed; run `go run ./internal/cmd/apilist` and commit the listing: %s", strings.Join(stale, ", "))
	}
	return nil
}

// fileName is the listing's name for a package: its path below the module
// with "/" as "-", "ptc" for the root.
func fileName(pkg string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	if rel == "" {
		rel = "ptc"
	}
	return strings.ReplaceAll(rel, "/", "-") + ".txt"
}

// listModule lists every public package of the module below root (not
// the modules nested in it: a directory with its own go.mod is skipped).
func listModule(root string) (map[string][]string, error) {
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		base := d.Name()
		if rel != "." && (base == "internal" || base == "testdata" || base == "node_modules" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		if rel != "." {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		lines, err := listPackage(path, pkg)
		if err != nil {
			return err
		}
		if lines != nil {
			out[pkg] = lines
		}
		return nil
	})
	return out, err
}

// listPackage lists the exported declarations of the package in dir, as
// built for linux/amd64 without tags (go/build picks the files); nil when
// dir holds no importable package.
func listPackage(dir, pkg string) ([]string, error) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = "linux", "amd64", false
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil, nil
		}
		return nil, err
	}
	if bp.Name == "main" {
		return nil, nil
	}
	fset := token.NewFileSet()
	var lines []string
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			lines = append(lines, declLines(fset, pkg, decl)...)
		}
	}
	slices.Sort(lines)
	return slices.Compact(lines), nil
}

func declLines(fset *token.FileSet, pkg string, decl ast.Decl) []string {
	var out []string
	add := func(s string) { out = append(out, pkg+", "+s) }
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() {
			return nil
		}
		if d.Recv != nil {
			recv := d.Recv.List[0].Type
			if !ast.IsExported(baseType(recv)) {
				return nil
			}
			add(fmt.Sprintf("method (%s) %s%s", node(fset, recv), d.Name.Name, strings.TrimPrefix(node(fset, d.Type), "func")))
			return out
		}
		add("func " + d.Name.Name + strings.TrimPrefix(node(fset, d.Type), "func"))
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if !s.Name.IsExported() {
					continue
				}
				out = append(out, typeLines(fset, pkg, s)...)
			case *ast.ValueSpec:
				kind := "var"
				if d.Tok == token.CONST {
					kind = "const"
				}
				for _, n := range s.Names {
					if !n.IsExported() {
						continue
					}
					line := kind + " " + n.Name
					if s.Type != nil {
						line += " " + node(fset, s.Type)
					}
					add(line)
				}
			}
		}
	}
	return out
}

func typeLines(fset *token.FileSet, pkg string, s *ast.TypeSpec) []string {
	name := s.Name.Name
	if s.TypeParams != nil {
		var ps []string
		for _, f := range s.TypeParams.List {
			var ns []string
			for _, n := range f.Names {
				ns = append(ns, n.Name)
			}
			ps = append(ps, strings.Join(ns, ", ")+" "+node(fset, f.Type))
		}
		name += "[" + strings.Join(ps, ", ") + "]"
	}
	eq := " "
	if s.Assign.IsValid() {
		eq = " = "
	}
	var out []string
	add := func(l string) { out = append(out, pkg+", "+l) }
	switch t := s.Type.(type) {
	case *ast.StructType:
		add("type " + name + " struct")
		for _, f := range t.Fields.List {
			if len(f.Names) == 0 {
				if ast.IsExported(baseType(f.Type)) {
					add("type " + s.Name.Name + " struct, embedded " + node(fset, f.Type))
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					add("type " + s.Name.Name + " struct, " + n.Name + " " + node(fset, f.Type))
				}
			}
		}
	case *ast.InterfaceType:
		add("type " + name + " interface")
		for _, m := range t.Methods.List {
			for _, n := range m.Names {
				if n.IsExported() {
					add("type " + s.Name.Name + " interface, " + n.Name + strings.TrimPrefix(node(fset, m.Type), "func"))
				}
			}
			if len(m.Names) == 0 {
				add("type " + s.Name.Name + " interface, embedded " + node(fset, m.Type))
			}
		}
	default:
		add("type " + name + eq + node(fset, s.Type))
	}
	return out
}

// baseType is the name of a receiver or embedded type: T of *T, T[P].
func baseType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func node(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		panic(errors.New("print: " + err.Error()))
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
