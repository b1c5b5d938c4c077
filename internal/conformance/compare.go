package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/models"
)

// maxDiff bounds the values a mismatch quotes.
const maxDiff = 2048

// compareRequest compares a model request with the one ADK recorded (its
// LlmRequest dumped without unset values) the way ADK's replay does: every
// field but the live-connect settings, the HTTP options and the labels.
// It returns "" when they match, else where they first differ.
func compareRequest(recorded map[string]any, req *v1.LlmRequest) string {
	b, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(req)
	if err != nil {
		return err.Error()
	}
	var current map[string]any
	if err := json.Unmarshal(b, &current); err != nil {
		return err.Error()
	}
	dropEngineIDs(current["contents"])
	current["contents"] = withUserTurn(current["contents"])
	want, got := requestView(recorded), requestView(current)
	return diff("llm_request", want, got)
}

// withUserTurn adds the user turn every model adapter adds to contents that
// do not end with one (models.ContinueTurnText): ADK records the request as
// its model sent it.
func withUserTurn(contents any) any {
	list, _ := contents.([]any)
	text := models.ContinueTurnText
	if len(list) == 0 {
		text = models.EmptyContentsText
	} else if last, _ := list[len(list)-1].(map[string]any); last["role"] == "user" {
		return contents
	}
	return append(list, map[string]any{"role": "user", "parts": []any{map[string]any{"text": text}}})
}

// requestView is a request without what ADK's replay leaves out of the
// comparison, normalized.
func requestView(m map[string]any) any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	delete(c, "live_connect_config")
	if cfg, ok := c["config"].(map[string]any); ok {
		cc := make(map[string]any, len(cfg))
		for k, v := range cfg {
			cc[k] = v
		}
		delete(cc, "http_options")
		delete(cc, "labels")
		c["config"] = cc
	}
	return normalize(c)
}

// dropEngineIDs removes the function call ids the engine made from the
// contents: models never send them (see models.ClientIDPrefix).
func dropEngineIDs(contents any) {
	list, _ := contents.([]any)
	for _, c := range list {
		parts, _ := c.(map[string]any)["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			for _, k := range []string{"function_call", "function_response"} {
				if f, ok := pm[k].(map[string]any); ok {
					if id, _ := f["id"].(string); models.IsClientID(id) {
						delete(f, "id")
					}
				}
			}
		}
	}
}

// normalize drops unset values (null, empty objects and lists) as ADK's
// dump does, and reads schema type names in upper case.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			e = normalize(e)
			if empty(e) {
				continue
			}
			if s, ok := e.(string); ok && k == "type" {
				e = strings.ToUpper(s)
			}
			out[k] = e
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			out = append(out, normalize(e))
		}
		return out
	case int:
		return float64(t)
	}
	return v
}

func empty(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

// diff describes the first difference between want and got under path, or
// returns "".
func diff(path string, want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		keys := make([]string, 0, len(wm)+len(gm))
		for k := range wm {
			keys = append(keys, k)
		}
		for k := range gm {
			if _, ok := wm[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			if d := diff(path+"."+k, wm[k], gm[k]); d != "" {
				return d
			}
		}
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok && len(wl) == len(gl) {
		for i := range wl {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), wl[i], gl[i]); d != "" {
				return d
			}
		}
	}
	return fmt.Sprintf("%s: recorded %s, current %s", path, quote(want), quote(got))
}

func quote(v any) string {
	if v == nil {
		return "(absent)"
	}
	b, _ := json.Marshal(v)
	return limits.Clip(string(b), maxDiff)
}
