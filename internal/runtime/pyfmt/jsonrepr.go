package pyfmt

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// ReprJSON returns the Python repr of the value json.loads makes of data,
// keys in the order data has them: what Python prints for a decoded JSON
// body (as google-genai's APIError does). It reports false when data is not
// one JSON value.
func ReprJSON(data []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out []byte
	// Each open container: '{' or '[', and whether the next token is an
	// object's key.
	type open struct {
		kind  byte
		items int
		key   bool
	}
	var stack []open
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		top := len(stack) - 1
		if top >= 0 {
			o := &stack[top]
			isEnd := tok == json.Delim('}') || tok == json.Delim(']')
			switch {
			case isEnd:
			case o.kind == '{' && o.key:
				if o.items > 0 {
					out = append(out, ", "...)
				}
				o.items++
			case o.kind == '{':
				out = append(out, ": "...)
			case o.items > 0:
				out = append(out, ", "...)
				o.items++
			default:
				o.items++
			}
			if o.kind == '{' && !isEnd {
				o.key = !o.key
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				out = append(out, byte(t))
				stack = append(stack, open{kind: byte(t), key: t == '{'})
			default:
				out = append(out, byte(t))
				stack = stack[:top]
			}
		case string:
			out = AppendQuote(out, t)
		case json.Number:
			s := t.String()
			if strings.ContainsAny(s, ".eE") {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					return "", false
				}
				out = AppendFloat(out, f)
			} else {
				out = append(out, s...)
			}
		case bool:
			out = append(out, map[bool]string{true: "True", false: "False"}[t]...)
		case nil:
			out = append(out, "None"...)
		}
		if len(stack) == 0 {
			if _, err := dec.Token(); err != io.EOF {
				return "", false // more than one value, or not JSON
			}
			return string(out), true
		}
	}
	return "", false
}
