package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ptchost/ptc/internal/guestfile"
)

// TestCompilationCache holds New's compilation cache to
// Config.CompilationCacheDir's doc: on by default, in $PTC_CACHE_DIR or
// the user's cache directory; off when asked.
func TestCompilationCache(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	unset := "unset"
	for _, c := range []struct {
		name     string
		cacheEnv string // PTC_CACHE_DIR, or unset
		cfg      Config
		want     string // the cache's directory, "" for none, "user" for the user's
		wantErr  bool
	}{
		{"default, PTC_CACHE_DIR", filepath.Join(tmp, "env"), Config{}, filepath.Join(tmp, "env", "wazero"), false},
		{"default, user cache", unset, Config{}, "user", false},
		{"PTC_CACHE_DIR empty", "", Config{}, "", false},
		{"opted out", filepath.Join(tmp, "env"), Config{NoCompilationCache: true}, "", false},
		{"opted out, dir given", filepath.Join(tmp, "env"), Config{NoCompilationCache: true, CompilationCacheDir: filepath.Join(tmp, "given")}, "", false},
		{"dir given", "", Config{CompilationCacheDir: filepath.Join(tmp, "given")}, filepath.Join(tmp, "given"), false},
		{"default unusable", file, Config{}, "", false},
		{"dir given unusable", "", Config{CompilationCacheDir: file}, "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("XDG_CACHE_HOME", "")
			t.Setenv(guestfile.EnvCacheDir, c.cacheEnv)
			if c.cacheEnv == unset {
				os.Unsetenv(guestfile.EnvCacheDir)
			}
			if c.want == "user" {
				d, err := os.UserCacheDir()
				if err != nil {
					t.Fatal(err)
				}
				c.want = filepath.Join(d, "ptc-run", "wazero")
			}
			cache, dir, err := compilationCache(c.cfg)
			if c.wantErr {
				if err == nil {
					t.Fatalf("compilationCache: no error, want one for %s", c.cfg.CompilationCacheDir)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if dir != c.want || (cache != nil) != (c.want != "") {
				t.Fatalf("compilationCache = %v, %q; want a cache in %q", cache, dir, c.want)
			}
			if cache == nil {
				return
			}
			defer cache.Close(t.Context())
			if st, err := os.Stat(dir); err != nil || !st.IsDir() {
				t.Errorf("the cache's directory %s was not made: %v", dir, err)
			}
		})
	}
}
