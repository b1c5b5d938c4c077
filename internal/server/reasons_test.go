package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// reasonSources are the trees, relative to this package, whose code may set
// an ErrorInfo reason.
var reasonSources = []string{"../../internal", "../../cmd"}

// reasonCodes returns the gRPC codes that the proto documents for r in its
// reason_codes option.
func reasonCodes(t *testing.T, r v1.ErrorReason) []codes.Code {
	t.Helper()
	value := r.Descriptor().Values().ByNumber(protoreflect.EnumNumber(r))
	names, _ := proto.GetExtension(value.Options(), v1.E_ReasonCodes).([]string)
	var out []codes.Code
	for _, name := range names {
		var c codes.Code
		if err := c.UnmarshalJSON([]byte(strconv.Quote(name))); err != nil {
			t.Errorf("%s: reason_codes %q is not a gRPC code: %v", r, name, err)
			continue
		}
		out = append(out, c)
	}
	return out
}

// allReasons returns every ErrorReason but ERROR_REASON_UNSPECIFIED.
func allReasons() []v1.ErrorReason {
	values := v1.ErrorReason(0).Descriptor().Values()
	var out []v1.ErrorReason
	for i := range values.Len() {
		if n := values.Get(i).Number(); n != 0 {
			out = append(out, v1.ErrorReason(n))
		}
	}
	return out
}

// TestErrorReasonsDocumentTheirCodes checks that every reason names at
// least one gRPC code, by a name gRPC knows.
func TestErrorReasonsDocumentTheirCodes(t *testing.T) {
	t.Parallel()
	for _, r := range allReasons() {
		if len(reasonCodes(t, r)) == 0 {
			t.Errorf("%s has no reason_codes option", r)
		}
	}
}

// TestCodeReasonsInSet checks that the reason a REST status without one gets
// (the name of its code) is in the set, documented with that code.
func TestCodeReasonsInSet(t *testing.T) {
	t.Parallel()
	for c := codes.Canceled; c <= codes.Unauthenticated; c++ {
		name := codeReason(c)
		r, ok := v1.ErrorReason_value[name]
		if !ok {
			t.Errorf("codeReason(%v) = %q, which is not an ErrorReason", c, name)
			continue
		}
		if got := reasonCodes(t, v1.ErrorReason(r)); !slices.Contains(got, c) {
			t.Errorf("%s is documented with %v, not with %v", name, got, c)
		}
	}
}

// TestAuthReasonsInSet checks the reasons of the auth package, which keeps
// them as strings of its own because it imports no other package of the
// service.
func TestAuthReasonsInSet(t *testing.T) {
	t.Parallel()
	for _, name := range []string{auth.ReasonUnauthenticated, auth.ReasonTokenInvalid, auth.ReasonTokenExpired} {
		r, ok := v1.ErrorReason_value[name]
		if !ok {
			t.Errorf("auth reason %q is not an ErrorReason", name)
			continue
		}
		if got := reasonCodes(t, v1.ErrorReason(r)); !slices.Equal(got, []codes.Code{codes.Unauthenticated}) {
			t.Errorf("%s is documented with %v; the server sends it with Unauthenticated", name, got)
		}
	}
}

// TestNoInlineErrorReasons fails on a reason written as a string literal:
// as the Reason of a composite literal (runtime.Error, ErrorInfo, ...), as
// the argument of a function's parameter named reason, as the reason
// returned next to a gRPC code, or as the value of a constant or variable
// named reason*. Every reason comes from the ErrorReason enum, so that the
// set stays closed and documented; only internal/auth, which may import no
// other package of the service, spells its three (see TestAuthReasonsInSet).
func TestNoInlineErrorReasons(t *testing.T) {
	t.Parallel()
	files := parseSources(t)
	reasonParams := map[string][]int{} // function name -> positions of its reason parameters
	for _, f := range files {
		for _, d := range f.file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				if pos := reasonParamPositions(fn.Type); len(pos) > 0 {
					reasonParams[fn.Name.Name] = pos
				}
			}
		}
	}
	for _, f := range files {
		inline := func(e ast.Expr, how string) {
			lit, ok := e.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || !reasonLiteral.MatchString(lit.Value) {
				return
			}
			if strings.HasPrefix(filepath.ToSlash(f.path), "../../internal/auth/") {
				if v, _ := strconv.Unquote(lit.Value); v1.ErrorReason_value[v] != 0 {
					return
				}
			}
			t.Errorf("%s: reason %s written inline (%s): use the ErrorReason enum (proto/agentsvc/v1/error_reason.proto)",
				f.fset.Position(lit.Pos()), lit.Value, how)
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if key, ok := n.Key.(*ast.Ident); ok && key.Name == "Reason" {
					inline(n.Value, "Reason field")
				}
			case *ast.CallExpr:
				for _, i := range reasonParams[calleeName(n.Fun)] {
					if i < len(n.Args) {
						inline(n.Args[i], "reason argument of "+calleeName(n.Fun))
					}
				}
			case *ast.ReturnStmt:
				if len(n.Results) >= 2 && isCode(n.Results[0]) {
					inline(n.Results[1], "returned with a code")
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if i < len(n.Values) && reasonName.MatchString(name.Name) {
						inline(n.Values[i], "value of "+name.Name)
					}
				}
			}
			return true
		})
	}
}

// TestErrorReasonsSentWithTheirCodes checks, where a reason and a code are
// written together (in one statement, else in one function), that the
// proto documents the reason with that code; and that every reason of the
// set is set somewhere, so that the set holds no reason the service never
// sends.
func TestErrorReasonsSentWithTheirCodes(t *testing.T) {
	t.Parallel()
	files := parseSources(t)
	used := map[string]bool{}
	for c := codes.Canceled; c <= codes.Unauthenticated; c++ {
		used[codeReason(c)] = true
	}
	for _, name := range []string{auth.ReasonUnauthenticated, auth.ReasonTokenInvalid, auth.ReasonTokenExpired} {
		used[name] = true
	}
	// Package-level variables that hold a reason, e.g. reasonServerBusy.
	aliases := map[string]map[string]string{} // package directory -> variable -> reason
	for _, f := range files {
		dir := filepath.Dir(f.path)
		for _, d := range f.file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, name := range vs.Names {
					if i < len(vs.Values) {
						if r := enumReason(unwrapString(vs.Values[i])); r != "" {
							if aliases[dir] == nil {
								aliases[dir] = map[string]string{}
							}
							aliases[dir][name.Name] = r
						}
					}
				}
			}
		}
	}
	for _, f := range files {
		dir := filepath.Dir(f.path)
		var stack []ast.Node
		ast.Inspect(f.file, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			r := enumReason(n)
			if id, ok := n.(*ast.Ident); ok && r == "" {
				r = aliases[dir][id.Name]
			}
			if r == "" {
				return true
			}
			used[r] = true
			found := codesNear(stack)
			if len(found) == 0 {
				return true
			}
			documented := reasonCodes(t, v1.ErrorReason(v1.ErrorReason_value[r]))
			for _, c := range found {
				if !slices.Contains(documented, c) {
					t.Errorf("%s: %s is sent with %v, but error_reason.proto documents it with %v",
						f.fset.Position(n.Pos()), r, c, documented)
				}
			}
			return true
		})
	}
	for _, r := range allReasons() {
		if !used[r.String()] {
			t.Errorf("%s is in the set but the service never sets it", r)
		}
	}
}

type sourceFile struct {
	path string
	fset *token.FileSet
	file *ast.File
}

// parseSources parses the non-test Go files of reasonSources.
func parseSources(t *testing.T) []sourceFile {
	t.Helper()
	fset := token.NewFileSet()
	var out []sourceFile
	for _, root := range reasonSources {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			out = append(out, sourceFile{path: path, fset: fset, file: f})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 100 {
		t.Fatalf("parsed %d files under %v; the walk is broken", len(out), reasonSources)
	}
	return out
}

// reasonParamPositions returns the positions of ft's string parameters
// named reason.
func reasonParamPositions(ft *ast.FuncType) []int {
	var pos []int
	i := 0
	for _, field := range ft.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, name := range field.Names {
			if typ, ok := field.Type.(*ast.Ident); ok && typ.Name == "string" && strings.EqualFold(name.Name, "reason") {
				pos = append(pos, i)
			}
			i++
		}
	}
	return pos
}

func calleeName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

var (
	// reasonLiteral is a quoted string that looks like a reason.
	reasonLiteral = regexp.MustCompile(`^"[A-Z][A-Z0-9_]*"$`)
	// reasonName is the name of a constant or variable that holds a reason.
	reasonName = regexp.MustCompile(`^[rR]eason([A-Z]|$)`)
)

var enumReasonIdent = regexp.MustCompile(`^ErrorReason_([A-Z][A-Z0-9_]*)$`)

// unwrapString returns x for x.String(), else e.
func unwrapString(e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "String" && len(call.Args) == 0 {
			return sel.X
		}
	}
	return e
}

// enumReason returns the reason that n, a selector v1.ErrorReason_X,
// names; "" for any other node.
func enumReason(n ast.Node) string {
	sel, ok := n.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "v1" {
		return ""
	}
	if m := enumReasonIdent.FindStringSubmatch(sel.Sel.Name); m != nil && m[1] != "ERROR_REASON_UNSPECIFIED" {
		return m[1]
	}
	return ""
}

// grpcCodes maps the Go names of the gRPC codes (and of the engine's
// runtime.Code, named after them with a Code prefix) to the codes.
var grpcCodes = func() map[string]codes.Code {
	m := map[string]codes.Code{}
	for c := codes.OK; c <= codes.Unauthenticated; c++ {
		m[c.String()] = c
	}
	return m
}()

// isCode reports whether e names a gRPC code (codes.X) or an engine code
// (runtime.CodeX, or CodeX inside the runtime package).
func isCode(e ast.Expr) bool {
	_, ok := codeOf(e)
	return ok
}

func codeOf(e ast.Node) (codes.Code, bool) {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		if !ok {
			return 0, false
		}
		switch pkg.Name {
		case "codes":
			c, ok := grpcCodes[e.Sel.Name]
			return c, ok
		case "runtime":
			return codeOf(e.Sel)
		}
	case *ast.Ident:
		if name, ok := strings.CutPrefix(e.Name, "Code"); ok {
			c, ok := grpcCodes[name]
			return c, ok
		}
	}
	return 0, false
}

// codesNear returns the codes written in the innermost statement (or
// declaration) around the last node of stack, else the code of its
// innermost function when the function names exactly one.
func codesNear(stack []ast.Node) []codes.Code {
	collect := func(n ast.Node) []codes.Code {
		var out []codes.Code
		ast.Inspect(n, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := codeOf(n); ok && !slices.Contains(out, c) {
				out = append(out, c)
			}
			return true
		})
		return out
	}
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case ast.Stmt, *ast.ValueSpec:
			if found := collect(stack[i]); len(found) > 0 {
				return found
			}
			for j := i - 1; j >= 0; j-- {
				var body *ast.BlockStmt
				switch fn := stack[j].(type) {
				case *ast.FuncLit:
					body = fn.Body
				case *ast.FuncDecl:
					body = fn.Body
				default:
					continue
				}
				if found := collect(body); len(found) == 1 {
					return found
				}
				return nil
			}
			return nil
		}
	}
	return nil
}
