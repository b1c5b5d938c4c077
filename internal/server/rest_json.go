package server

import (
	"bytes"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// adkJSON is the REST marshaler: protojson, with ADK's JSON where the two
// differ. A session always has its "events" array, empty or not; an
// event's artifactDelta versions are numbers (protojson writes int64 as
// strings); a list of names that is empty is [] rather than null.
type adkJSON struct {
	gwruntime.JSONPb
}

// Marshal implements [gwruntime.Marshaler].
func (m *adkJSON) Marshal(v any) ([]byte, error) {
	switch v := v.(type) {
	case *v1.Session:
		return m.session(v)
	case []*v1.Session:
		var b bytes.Buffer
		b.WriteByte('[')
		for i, s := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			one, err := m.session(s)
			if err != nil {
				return nil, err
			}
			b.Write(one)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	case []string:
		if v == nil {
			return []byte("[]"), nil
		}
	}
	return m.JSONPb.Marshal(v)
}

// session is s as ADK writes a session: its events always present.
func (m *adkJSON) session(s *v1.Session) ([]byte, error) {
	b, err := m.JSONPb.Marshal(s)
	if err != nil {
		return nil, err
	}
	if len(s.GetEvents()) == 0 && len(b) > 1 && b[0] == '{' {
		sep := ","
		if bytes.Equal(bytes.TrimSpace(b[1:]), []byte("}")) {
			sep = ""
		}
		b = append([]byte(`{"events":[]`+sep), b[1:]...)
	}
	return artifactDeltaNumbers(b), nil
}

// eventJSON is ev as ADK writes an event.
func eventJSON(ev *v1.Event) ([]byte, error) {
	b, err := jsonOut.Marshal(ev)
	if err != nil {
		return nil, err
	}
	return artifactDeltaNumbers(b), nil
}

var artifactDeltaKey = []byte(`"artifactDelta"`)

// artifactDeltaNumbers rewrites the values of every artifactDelta object in
// the protojson document b, versions that protojson quotes as int64, as
// JSON numbers, as ADK writes them (a dict of str to int).
func artifactDeltaNumbers(b []byte) []byte {
	if !bytes.Contains(b, artifactDeltaKey) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] != '"' {
			out = append(out, b[i])
			i++
			continue
		}
		end := stringEnd(b, i)
		out = append(out, b[i:end]...)
		if !bytes.Equal(b[i:end], artifactDeltaKey) {
			i = end
			continue
		}
		// A key (only a key is followed by a colon) naming the object.
		j := skipSpace(b, end)
		if j >= len(b) || b[j] != ':' {
			i = end
			continue
		}
		j = skipSpace(b, j+1)
		if j >= len(b) || b[j] != '{' {
			i = end
			continue
		}
		out = append(out, b[end:j]...)
		out, i = unquoteValues(b, j, out)
	}
	return out
}

// unquoteValues copies the object that starts at b[start] to out, each
// value's quotes dropped, and returns out and the index after the object.
func unquoteValues(b []byte, start int, out []byte) ([]byte, int) {
	value := false
	for i := start; i < len(b); {
		switch c := b[i]; c {
		case '"':
			end := stringEnd(b, i)
			if value && end-i >= 2 {
				out = append(out, b[i+1:end-1]...)
			} else {
				out = append(out, b[i:end]...)
			}
			value = false
			i = end
		case ':':
			value = true
			out = append(out, c)
			i++
		case '}':
			return append(out, c), i + 1
		default:
			out = append(out, c)
			i++
		}
	}
	return out, len(b)
}

// stringEnd returns the index after the JSON string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}
