package archdoc

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestEveryPackageIsMapped fails for each directory under internal/ holding
// non-test Go files that docs/architecture.md does not name (as
// "internal/<path>"), so that the codemap grows with the code.
func TestEveryPackageIsMapped(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatalf("read the codemap: %v", err)
	}
	text := string(doc)
	pkgs := map[string]bool{}
	root := ".."
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			pkgs[path.Join("internal", filepath.ToSlash(rel))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk internal/: %v", err)
	}
	if len(pkgs) == 0 {
		t.Fatal("found no packages under internal/")
	}
	var missing []string
	for p := range pkgs {
		if !mentions(text, p) {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	for _, p := range missing {
		t.Errorf("docs/architecture.md does not mention %s", p)
	}
}

// mentions reports whether text names pkg as a whole path: followed by
// neither another path element nor a longer name.
func mentions(text, pkg string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], pkg)
		if j < 0 {
			return false
		}
		end := i + j + len(pkg)
		if end == len(text) || !isPathByte(text[end]) {
			return true
		}
		i = end
	}
}

func isPathByte(b byte) bool {
	return b == '/' || b == '_' || b == '-' ||
		'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
