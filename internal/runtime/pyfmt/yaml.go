package pyfmt

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// Dict is a Python dict whose keys keep the order they were added in, as
// a dict built by Python code does.
type Dict []Item

// Item is one key of a [Dict] and its value.
type Item struct {
	Key   string
	Value any
}

// Float is a Python float: it prints as one even when it is integral
// ("40.0"), where a JSON number prints as an int.
type Float float64

// YAMLWidth is the line width ADK asks PyYAML for.
const YAMLWidth = 120

// AppendYAML appends what PyYAML's yaml.dump(v, default_flow_style=False,
// allow_unicode=True, sort_keys=False, width=width) writes for the object
// v stands for, and returns the extended buffer. v and the values inside
// it are nil (None), bool, int, int64, [Float], float64 (a JSON number, see
// the package doc), string, []any, []string, [Dict], *structpb.Value,
// *structpb.Struct (keys sorted) or *structpb.ListValue; any other type
// prints as None. Collections print in block style, empty ones as [] and
// {}, and scalars are plain where PyYAML writes them plain and quoted
// otherwise, folded at width as PyYAML folds them.
func AppendYAML(dst []byte, v any, width int) []byte {
	e := &yamlEmitter{out: dst, width: 80, indent: noIndent, whitespace: true, indention: true}
	if width > 2*yamlIndent {
		e.width = width
	}
	e.node(v, false, false)
	// The document ends on a line of its own.
	e.writeIndent()
	return e.out
}

// yamlIndent is PyYAML's default indentation step.
const yamlIndent = 2

// noIndent stands for PyYAML's indent of None, before the first node.
const noIndent = -1

// yamlEmitter follows the state of PyYAML's Emitter through one document:
// the current indentation and the ones to go back to, the column, and
// whether the last thing written was white space or indentation.
type yamlEmitter struct {
	out        []byte
	width      int
	indent     int
	indents    []int
	column     int
	whitespace bool
	indention  bool
}

// node writes v in the context PyYAML's expect_node is given: as an item
// of a block mapping, or as the key of one (simpleKey).
func (e *yamlEmitter) node(v any, mapping, simpleKey bool) {
	switch n := yamlNode(v).(type) {
	case []any:
		if len(n) == 0 {
			e.writeIndicator("[]", true, false, false)
			return
		}
		e.increaseIndent(false, mapping && !e.indention)
		for _, item := range n {
			e.writeIndent()
			e.writeIndicator("-", true, false, true)
			e.node(item, false, false)
		}
		e.popIndent()
	case Dict:
		if len(n) == 0 {
			e.writeIndicator("{}", true, false, false)
			return
		}
		e.increaseIndent(false, false)
		for _, item := range n {
			e.writeIndent()
			key := analyzeScalar([]rune(item.Key))
			if len(key.text) < 128 && !key.empty && !key.multiline {
				e.scalar(key, !resolvesImplicitly(item.Key), true)
				e.writeIndicator(":", false, false, false)
			} else {
				e.writeIndicator("?", true, false, true)
				e.scalar(key, !resolvesImplicitly(item.Key), false)
				e.writeIndent()
				e.writeIndicator(":", true, false, true)
			}
			e.node(item.Value, true, false)
		}
		e.popIndent()
	case yamlScalar:
		e.scalar(analyzeScalar([]rune(n.text)), n.plain, simpleKey)
	}
}

// yamlScalar is a scalar's text; plain is PyYAML's implicit[0]: the text
// read back as a plain scalar gives the same value.
type yamlScalar struct {
	text  string
	plain bool
}

// yamlNode reduces v to a []any, a Dict or a yamlScalar.
func yamlNode(v any) any {
	switch x := v.(type) {
	case nil:
		return yamlScalar{"null", true}
	case bool:
		if x {
			return yamlScalar{"true", true}
		}
		return yamlScalar{"false", true}
	case int:
		return yamlScalar{strconv.Itoa(x), true}
	case int64:
		return yamlScalar{strconv.FormatInt(x, 10), true}
	case Float:
		return yamlScalar{yamlFloat(float64(x)), true}
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxExactInt {
			return yamlScalar{strconv.FormatInt(int64(x), 10), true}
		}
		return yamlScalar{yamlFloat(x), true}
	case string:
		return yamlScalar{x, !resolvesImplicitly(x)}
	case []any, Dict:
		return x
	case []string:
		list := make([]any, len(x))
		for i, s := range x {
			list[i] = s
		}
		return list
	case *structpb.Struct:
		keys := make([]string, 0, len(x.GetFields()))
		for k := range x.GetFields() {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		d := make(Dict, len(keys))
		for i, k := range keys {
			d[i] = Item{k, x.Fields[k]}
		}
		return d
	case *structpb.ListValue:
		list := make([]any, len(x.GetValues()))
		for i, item := range x.GetValues() {
			list[i] = item
		}
		return list
	case *structpb.Value:
		switch k := x.GetKind().(type) {
		case *structpb.Value_StringValue:
			return yamlNode(k.StringValue)
		case *structpb.Value_NumberValue:
			return yamlNode(k.NumberValue)
		case *structpb.Value_BoolValue:
			return yamlNode(k.BoolValue)
		case *structpb.Value_StructValue:
			return yamlNode(k.StructValue)
		case *structpb.Value_ListValue:
			return yamlNode(k.ListValue)
		}
	}
	return yamlScalar{"null", true}
}

// yamlFloat is PyYAML's text of a float: repr() lower-cased, with ".0"
// before an exponent that follows no point; .inf, -.inf and .nan.
func yamlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := string(AppendFloat(nil, f))
	if e := strings.IndexByte(s, 'e'); e >= 0 && strings.IndexByte(s, '.') < 0 {
		s = s[:e] + ".0" + s[e:]
	}
	return s
}

func (e *yamlEmitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	switch {
	case e.indent == noIndent && flow:
		e.indent = yamlIndent
	case e.indent == noIndent:
		e.indent = 0
	case !indentless:
		e.indent += yamlIndent
	}
}

func (e *yamlEmitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

// writeIndicator writes an indicator, after a space unless white space
// precedes it or none is needed.
func (e *yamlEmitter) writeIndicator(indicator string, needWhitespace, whitespace, indention bool) {
	if !e.whitespace && needWhitespace {
		e.out = append(e.out, ' ')
		e.column++
	}
	e.out = append(e.out, indicator...)
	e.column += len(indicator)
	e.whitespace = whitespace
	e.indention = e.indention && indention
}

// writeIndent starts a new line unless the current one holds only
// indentation, then indents to the current level.
func (e *yamlEmitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.writeLineBreak('\n')
	}
	if e.column < indent {
		e.whitespace = true
		for ; e.column < indent; e.column++ {
			e.out = append(e.out, ' ')
		}
	}
}

func (e *yamlEmitter) writeLineBreak(br rune) {
	e.whitespace = true
	e.indention = true
	e.column = 0
	e.out = append(e.out, string(br)...)
}

// write writes text that holds no line break.
func (e *yamlEmitter) write(text []rune) {
	for _, r := range text {
		e.out = utf8.AppendRune(e.out, r)
	}
	e.column += len(text)
}
