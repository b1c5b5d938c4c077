package a2a

import (
	"encoding/json"
	"strings"
)

// fieldError is one entry of a validation error's data, in the form
// a2a-sdk's server answers it: pydantic's error with its type, location,
// message, input and context.
type fieldError struct {
	Type  string         `json:"type"`
	Loc   []any          `json:"loc"`
	Msg   string         `json:"msg"`
	Input any            `json:"input"`
	Ctx   map[string]any `json:"ctx,omitempty"`
	URL   string         `json:"url"`
}

// pydanticDocs is where the errors a2a-sdk's server answers point to, by
// the pydantic release it pins.
const pydanticDocs = "https://errors.pydantic.dev/2.14/v/"

// checker collects the errors of one validation, as pydantic does: every
// field of a model checked in declaration order, all errors kept.
type checker struct{ errs []fieldError }

func (c *checker) add(typ string, loc []any, msg string, input any, ctx map[string]any) {
	c.errs = append(c.errs, fieldError{Type: typ, Loc: append([]any{}, loc...), Msg: msg, Input: input, Ctx: ctx,
		URL: pydanticDocs + typ})
}

func at(loc []any, more ...any) []any { return append(append([]any(nil), loc...), more...) }

// field returns obj's field by its camelCase alias or its snake_case name,
// as a2a-sdk's models accept either.
func field(obj map[string]any, alias string) (any, bool) {
	if v, ok := obj[alias]; ok {
		return v, true
	}
	v, ok := obj[snake(alias)]
	return v, ok
}

func snake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// required reports a missing field; ok when present.
func (c *checker) required(obj map[string]any, name string, loc []any) (any, bool) {
	v, ok := field(obj, name)
	if !ok {
		c.add("missing", at(loc, name), "Field required", obj, nil)
	}
	return v, ok
}

func (c *checker) str(v any, loc []any) bool {
	if _, ok := v.(string); !ok {
		c.add("string_type", loc, "Input should be a valid string", v, nil)
		return false
	}
	return true
}

// optional checks an optional field with check when present and not null.
func (c *checker) optional(obj map[string]any, name string, loc []any, check func(any, []any) bool) {
	if v, ok := field(obj, name); ok && v != nil {
		check(v, at(loc, name))
	}
}

func (c *checker) dict(v any, loc []any) bool {
	if _, ok := v.(map[string]any); !ok {
		c.add("dict_type", loc, "Input should be a valid dictionary", v, nil)
		return false
	}
	return true
}

func (c *checker) integer(v any, loc []any) bool {
	switch kind := numberKind(v); kind {
	case "int":
		return true
	case "float":
		c.add("int_from_float", loc, "Input should be a valid integer, got a number with a fractional part", v, nil)
	default:
		c.add("int_type", loc, "Input should be a valid integer", v, nil)
	}
	return false
}

func (c *checker) literal(v any, want string, loc []any) bool {
	if v != want {
		q := "'" + want + "'"
		c.add("literal_error", loc, "Input should be "+q, v, map[string]any{"expected": q})
		return false
	}
	return true
}

func (c *checker) model(v any, class string, loc []any) (map[string]any, bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		c.add("model_type", loc, "Input should be a valid dictionary or instance of "+class, v,
			map[string]any{"class_name": class})
	}
	return obj, ok
}

// numberKind is "int" for an integer (pydantic also takes a boolean and a
// float without a fraction), "float" for a number with a fraction, ""
// otherwise.
func numberKind(v any) string {
	switch v := v.(type) {
	case bool:
		return "int"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "int"
		}
		f, err := v.Float64()
		if err == nil && f == float64(int64(f)) {
			return "int"
		}
		return "float"
	}
	return ""
}

// requestID checks a request's id, a string or an integer.
func (c *checker) requestID(v any, loc []any) bool {
	if _, ok := v.(string); ok || numberKind(v) == "int" {
		return true
	}
	c.add("string_type", at(loc, "str"), "Input should be a valid string", v, nil)
	if numberKind(v) == "float" {
		c.add("int_from_float", at(loc, "int"), "Input should be a valid integer, got a number with a fractional part", v, nil)
	} else {
		c.add("int_type", at(loc, "int"), "Input should be a valid integer", v, nil)
	}
	return false
}

// checkEnvelope is JSON-RPC 2.0's request as a2a-sdk's JSONRPCRequest
// checks it: a JSON object with an optional id (string or integer),
// jsonrpc "2.0" when given, a method and structured params (an object or,
// by position, an array, which [checkRequest] refuses) when given.
func checkEnvelope(body any) []fieldError {
	var c checker
	obj, ok := c.model(body, "JSONRPCRequest", []any{})
	if !ok {
		return c.errs
	}
	c.optional(obj, "id", nil, c.requestID)
	if v, ok := obj["jsonrpc"]; ok {
		c.literal(v, "2.0", []any{"jsonrpc"})
	}
	if v, ok := c.required(obj, "method", nil); ok {
		c.str(v, []any{"method"})
	}
	c.optional(obj, "params", nil, func(v any, loc []any) bool {
		if _, ok := v.([]any); ok {
			return true
		}
		return c.dict(v, loc)
	})
	return c.errs
}

// checkRequest is a2a-sdk's model of a known method's request: an id and
// params are required, the params of the method's model.
func checkRequest(obj map[string]any, params func(*checker, map[string]any, []any)) []fieldError {
	var c checker
	if v, ok := c.required(obj, "id", nil); ok {
		c.requestID(v, []any{"id"})
	}
	if v, ok := c.required(obj, "params", nil); ok {
		if p, ok := v.(map[string]any); !ok {
			c.dict(v, []any{"params"}) // A2A's methods take named params
		} else if params != nil {
			params(&c, p, []any{"params"})
		}
	}
	return c.errs
}

// messageSendParams is a2a-sdk's MessageSendParams.
func messageSendParams(c *checker, p map[string]any, loc []any) {
	c.optional(p, "configuration", loc, func(v any, l []any) bool { _, ok := c.model(v, "MessageSendConfiguration", l); return ok })
	if v, ok := c.required(p, "message", loc); ok {
		if m, ok := c.model(v, "Message", at(loc, "message")); ok {
			message(c, m, at(loc, "message"))
		}
	}
	c.optional(p, "metadata", loc, c.dict)
}

// message is a2a-sdk's Message: an id, the parts and a role user or agent.
func message(c *checker, m map[string]any, loc []any) {
	c.optional(m, "contextId", loc, c.str)
	c.optional(m, "kind", loc, func(v any, l []any) bool { return c.literal(v, "message", l) })
	if v, ok := c.required(m, "messageId", loc); ok {
		c.str(v, at(loc, "messageId"))
	}
	c.optional(m, "metadata", loc, c.dict)
	if v, ok := c.required(m, "parts", loc); ok {
		parts, isList := v.([]any)
		if !isList {
			c.add("list_type", at(loc, "parts"), "Input should be a valid list", v, nil)
		}
		for i, p := range parts {
			part(c, p, at(loc, "parts", i))
		}
	}
	if v, ok := c.required(m, "role", loc); ok && v != "user" && v != "agent" {
		c.add("enum", at(loc, "role"), "Input should be 'agent' or 'user'", v, map[string]any{"expected": "'agent' or 'user'"})
	}
	c.optional(m, "taskId", loc, c.str)
}

// partKinds are a2a-sdk's Part union, in its order.
var partKinds = []struct {
	class, kind string
	check       func(c *checker, p map[string]any, loc []any)
}{
	{"TextPart", "text", func(c *checker, p map[string]any, loc []any) {
		if v, ok := c.required(p, "text", loc); ok {
			c.str(v, at(loc, "text"))
		}
	}},
	{"FilePart", "file", func(c *checker, p map[string]any, loc []any) {
		if v, ok := c.required(p, "file", loc); ok {
			file(c, v, at(loc, "file"))
		}
	}},
	{"DataPart", "data", func(c *checker, p map[string]any, loc []any) {
		if v, ok := c.required(p, "data", loc); ok {
			c.dict(v, at(loc, "data"))
		}
	}},
}

// part checks a part against each kind of the union; it is valid when one
// kind accepts it, and then carries that kind. A part without a kind is the
// first kind whose fields it has, as a2a-sdk reads it.
func part(c *checker, v any, loc []any) {
	var all []fieldError
	for _, k := range partKinds {
		var kc checker
		l := at(loc, k.class)
		p, ok := kc.model(v, k.class, l)
		if ok {
			// Pydantic checks the fields in declaration order: kind sorts
			// after text's and before metadata.
			if k.kind != "text" {
				k.check(&kc, p, l)
			}
			if kv, has := p["kind"]; has {
				kc.literal(kv, k.kind, at(l, "kind"))
			}
			kc.optional(p, "metadata", l, kc.dict)
			if k.kind == "text" {
				k.check(&kc, p, l)
			}
		}
		if len(kc.errs) == 0 {
			if _, has := p["kind"]; !has {
				p["kind"] = k.kind
			}
			return
		}
		all = append(all, kc.errs...)
	}
	c.errs = append(c.errs, all...)
}

// file is a2a-sdk's FileWithBytes | FileWithUri.
func file(c *checker, v any, loc []any) {
	var all []fieldError
	for _, f := range []struct{ class, key string }{{"FileWithBytes", "bytes"}, {"FileWithUri", "uri"}} {
		var fc checker
		l := at(loc, f.class)
		if obj, ok := fc.model(v, f.class, l); ok {
			if s, ok := fc.required(obj, f.key, l); ok {
				fc.str(s, at(l, f.key))
			}
		}
		if len(fc.errs) == 0 {
			return
		}
		all = append(all, fc.errs...)
	}
	c.errs = append(c.errs, all...)
}

// taskIDParams is a2a-sdk's TaskIdParams.
func taskIDParams(c *checker, p map[string]any, loc []any) {
	if v, ok := c.required(p, "id", loc); ok {
		c.str(v, at(loc, "id"))
	}
	c.optional(p, "metadata", loc, c.dict)
}

// taskQueryParams is a2a-sdk's TaskQueryParams.
func taskQueryParams(c *checker, p map[string]any, loc []any) {
	c.optional(p, "historyLength", loc, c.integer)
	taskIDParams(c, p, loc)
}

// camelCase renames the snake_case names a2a-sdk also accepts to the
// aliases a2a-go reads, in place, at every depth.
func camelCase(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if strings.Contains(k, "_") && !strings.HasPrefix(k, "_") {
				if c := camel(k); c != k {
					if _, taken := v[c]; !taken {
						v[c] = x
						delete(v, k)
					}
				}
			}
		}
		for k, x := range v {
			if k != "metadata" && k != "data" {
				camelCase(x)
			}
		}
	case []any:
		for _, x := range v {
			camelCase(x)
		}
	}
}

func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
