package typescript

import (
	"errors"
	"strings"
	"testing"
)

func TestStrip(t *testing.T) {
	src := "interface Row { id: number; name: string }\n" +
		"const rows: Row[] = await tools.run_sql({q: \"x\"}) as Row[];\n" +
		"enum Color { Red, Green }\n" +
		"const x = rows[0]!.name;\n" +
		"if (!rows.length) return \"none\";\n" +
		"return rows.map((r): string => r.name satisfies string);\n"
	js, m, err := Strip(src)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(js, "\n") || strings.Contains(js, "__ptc_body") || strings.Contains(js, "interface") || strings.Contains(js, ": string") {
		t.Fatalf("stripped:\n%s", js)
	}
	lines := strings.Split("(async function () {"+js+"\n})", "\n")
	// Each statement maps back to the line it was written on.
	for want, needle := range map[int]string{2: "const rows", 4: "const x", 5: "if (!rows.length)", 6: "return rows.map"} {
		found := false
		for i, l := range lines {
			c := strings.Index(l, needle)
			if c < 0 {
				continue
			}
			found = true
			line, col, ok := m.Position(i+1, c+1)
			if !ok || line != want || col != 1 {
				t.Errorf("%q at %d:%d maps to %d:%d (%v), want %d:1", needle, i+1, c+1, line, col, ok, want)
			}
			tab := m.Lines()
			if got := int(tab[2*(i+1)]); got != want {
				t.Errorf("Lines()[%d] = %d, want %d", i+1, got, want)
			}
		}
		if !found {
			t.Errorf("%q not in output:\n%s", needle, js)
		}
	}
	if _, _, ok := m.Position(1, 1); ok {
		t.Error("the wrapper's line maps into the program")
	}
}

func TestStrip_error(t *testing.T) {
	_, _, err := Strip("const a = 1;\nconst b: = 2;\n")
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Fatalf("err = %v, want an *Error on line 2", err)
	}
}

func FuzzStrip(f *testing.F) {
	f.Add("const a: number = 1; return a as number;")
	f.Add("}); (function () {")
	f.Add("interface A { x: string }\nreturn {} as A;")
	f.Fuzz(func(t *testing.T, src string) {
		js, m, err := Strip(src)
		if err != nil {
			return
		}
		n := strings.Count(js, "\n") + 2
		for l := 0; l <= n+1; l++ {
			if line, col, ok := m.Position(l, 1); ok && (line < 1 || col < 1) {
				t.Fatalf("position %d maps to %d:%d", l, line, col)
			}
		}
		_ = m.Lines()
	})
}
