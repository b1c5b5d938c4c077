package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// module is the module path of the service.
const module = "github.com/agentsvc/agentsvc"

// TestServerNamesNoAgentType: the server (and the dev UI package under it)
// reads agents through runtime.Describe and the runtime.Agent interface,
// never through a concrete agent type, so that a new kind of agent needs
// no change here. An agent type is any type under internal/ with a Run
// method taking the *runtime.InvocationContext; a non-test file of the
// server that names one fails.
func TestServerNamesNoAgentType(t *testing.T) {
	t.Parallel()
	agents := agentTypes(t, "..")
	for _, want := range []string{"runtime/llmagent.Agent", "runtime/workflow.Loop", "runtime/graph.Workflow"} {
		pkg, name, _ := strings.Cut(want, ".")
		if !agents[module+"/internal/"+pkg][name] {
			t.Fatalf("agent type %s not found: the search is broken", want)
		}
	}
	eachFile(t, ".", func(file string, f *ast.File, fset *token.FileSet) {
		imports := map[string]string{}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			name := path.Base(p)
			if spec.Name != nil {
				name = spec.Name.Name
			}
			imports[name] = p
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && agents[imports[x.Name]][sel.Sel.Name] {
				t.Errorf("%s: names the agent type %s.%s; read it through runtime.Describe", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			return true
		})
	})
}

// agentTypes finds the agent types of the packages under dir (internal/),
// the server's aside: by import path, the names of the types with a method
// Run(*runtime.InvocationContext).
func agentTypes(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	eachFile(t, dir, func(file string, f *ast.File, _ *token.FileSet) {
		rel, err := filepath.Rel(dir, filepath.Dir(file))
		if err != nil {
			t.Fatal(err)
		}
		if rel == "server" || strings.HasPrefix(rel, "server"+string(filepath.Separator)) {
			return
		}
		pkg := module + "/internal/" + filepath.ToSlash(rel)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "Run" || len(fn.Type.Params.List) == 0 {
				continue
			}
			param, ok := fn.Type.Params.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			switch p := param.X.(type) {
			case *ast.Ident:
				ok = p.Name == "InvocationContext"
			case *ast.SelectorExpr:
				ok = p.Sel.Name == "InvocationContext"
			default:
				ok = false
			}
			if !ok {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, isStar := recv.(*ast.StarExpr); isStar {
				recv = star.X
			}
			if id, isIdent := recv.(*ast.Ident); isIdent {
				if out[pkg] == nil {
					out[pkg] = map[string]bool{}
				}
				out[pkg][id.Name] = true
			}
		}
	})
	return out
}

// eachFile parses every non-test Go file under dir, testdata aside.
func eachFile(t *testing.T, dir string, visit func(file string, f *ast.File, fset *token.FileSet)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		visit(p, f, fset)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
