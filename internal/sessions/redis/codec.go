package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// State values are stored as JSON text, so that they stay readable with
// redis-cli; null is stored as "null", not deleted.

// decodeRecursionLimit is how deep a stored event or state value may nest
// when it is read back. Writers cap nesting far below it now, but earlier
// ones stored what protobuf's default limit of 10,000 let through, and an
// event or delta adds levels around a request's value: above the default,
// a session would fail every read until deleted.
const decodeRecursionLimit = 1 << 16

var (
	eventDecoder = proto.UnmarshalOptions{RecursionLimit: decodeRecursionLimit}
	valueDecoder = protojson.UnmarshalOptions{RecursionLimit: decodeRecursionLimit}
)

// decodeEvent reads a stored event.
func decodeEvent(b string) (*v1.Event, error) {
	ev := new(v1.Event)
	if err := eventDecoder.Unmarshal([]byte(b), ev); err != nil {
		return nil, err
	}
	return ev, nil
}

// appendScoped appends the count of each scope's entries, then the entries
// as field/value pairs, the layout the writing scripts read.
func appendScoped(args []any, split scope.Split) ([]any, error) {
	args = append(args, len(split.Session), len(split.App), len(split.User))
	for _, entries := range [][]scope.Entry{split.Session, split.App, split.User} {
		pairs, err := encodeEntries(entries)
		if err != nil {
			return nil, err
		}
		args = append(args, pairs...)
	}
	return args, nil
}

// encodeEntries returns entries as field/value pairs, values in JSON.
func encodeEntries(entries []scope.Entry) ([]any, error) {
	pairs := make([]any, 0, 2*len(entries))
	for _, e := range entries {
		b, err := json.Marshal(e.Value.AsInterface())
		if err != nil {
			return nil, fmt.Errorf("encode state %q: %w", e.Key, err)
		}
		pairs = append(pairs, e.Key, b)
	}
	return pairs, nil
}

// decodeState reads HGETALL pairs of the hash at key, as returned by a
// script, into a map. A value that does not decode is left out and
// reported (see skipValue): one bad value must not make every session that
// shares its scope unreadable.
func (s *Service) decodeState(ctx context.Context, key string, reply any) (map[string]*structpb.Value, error) {
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
			s.skipValue(ctx, key, k, err)
			continue
		}
		out[k] = v
	}
	return out, nil
}

func decodeValue(raw string) (*structpb.Value, error) {
	v := new(structpb.Value)
	if err := valueDecoder.Unmarshal([]byte(raw), v); err != nil {
		return nil, err
	}
	return v, nil
}

// skipValue reports a state value left out of a read: the hash, the state
// key and the error, never the value.
func (s *Service) skipValue(ctx context.Context, hash, key string, err error) {
	s.log.WarnContext(ctx, "sessions: skipped a stored state value that does not decode",
		"hash", hash, "state_key", key, "err", err)
}

// skipEvent reports an event left out of a read: the session's key and the
// event's position among those read, never the event.
func (s *Service) skipEvent(ctx context.Context, events string, index, read int, err error) {
	s.log.WarnContext(ctx, "sessions: skipped a stored event that does not decode",
		"events", events, "index", index, "read", read, "err", err)
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

// decodeStateStrings reads an HGETALL result of the hash at key into a
// map, leaving out values that do not decode as decodeState does.
func (s *Service) decodeStateStrings(ctx context.Context, key string, m map[string]string) map[string]*structpb.Value {
	out := make(map[string]*structpb.Value, len(m))
	for k, raw := range m {
		v, err := decodeValue(raw)
		if err != nil {
			s.skipValue(ctx, key, k, err)
			continue
		}
		out[k] = v
	}
	return out
}
