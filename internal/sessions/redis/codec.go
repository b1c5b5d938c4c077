package redis

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// State values are stored as JSON text, so that they stay readable with
// redis-cli; null is stored as "null", not deleted.

// appendScoped appends the count of each scope's entries, then the entries
// as field/value pairs, the layout the writing scripts read.
func appendScoped(args []any, split scope.Split) ([]any, error) {
	args = append(args, len(split.Session), len(split.App), len(split.User))
	for _, entries := range [][]scope.Entry{split.Session, split.App, split.User} {
		for _, e := range entries {
			b, err := json.Marshal(e.Value.AsInterface())
			if err != nil {
				return nil, fmt.Errorf("encode state %q: %w", e.Key, err)
			}
			args = append(args, e.Key, b)
		}
	}
	return args, nil
}

// decodeState reads HGETALL pairs as returned by a script into a map.
func decodeState(reply any) (map[string]*structpb.Value, error) {
	pairs, ok := reply.([]any)
	if !ok || len(pairs)%2 != 0 {
		return nil, fmt.Errorf("unexpected state reply %T", reply)
	}
	out := make(map[string]*structpb.Value, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		k, _ := pairs[i].(string)
		raw, _ := pairs[i+1].(string)
		v, err := decodeValue(raw)
		if err != nil {
			return nil, fmt.Errorf("decode state %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

func decodeValue(raw string) (*structpb.Value, error) {
	v := new(structpb.Value)
	if err := protojson.Unmarshal([]byte(raw), v); err != nil {
		return nil, err
	}
	return v, nil
}

// parseVersion reads a stored version (microseconds).
func parseVersion(reply any) (int64, error) {
	s, _ := reply.(string)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("unexpected version %q", s)
	}
	return v, nil
}

func formatVersion(v int64) string {
	return strconv.FormatInt(v, 10)
}

// formatScore renders a timestamp exactly, for sorted-set scores.
func formatScore(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// parseScore reads a sorted-set score written by formatScore; Redis replies
// with enough digits to give back the same float64.
func parseScore(reply any) (float64, error) {
	s, _ := reply.(string)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("unexpected score %q", s)
	}
	return f, nil
}

// decodeStateStrings reads an HGETALL result into a map.
func decodeStateStrings(m map[string]string) (map[string]*structpb.Value, error) {
	out := make(map[string]*structpb.Value, len(m))
	for k, raw := range m {
		v, err := decodeValue(raw)
		if err != nil {
			return nil, fmt.Errorf("decode state %q: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}
