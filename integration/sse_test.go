package integration

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestRunSSEFramesAreEvents posts an ADK API server body to /run_sse and
// parses every frame as an Event: partial chunks, then the aggregated answer.
func TestRunSSEFramesAreEvents(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent})
	resp, err := http.Post(s.httpURL+"/apps/weather/users/u/sessions", "application/json", strings.NewReader(`{"sessionId": "s1"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	body := `{"appName": "weather", "userId": "u", "sessionId": "s1",
		"newMessage": {"role": "user", "parts": [{"text": "Is it raining?"}]}, "streaming": true}`
	resp, err = http.Post(s.httpURL+"/run_sse", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("status %d, content type %q", resp.StatusCode, ct)
	}
	var events []*v1.Event
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("line %q is not a data frame", line)
		}
		ev := &v1.Event{}
		if err := protojson.Unmarshal([]byte(data), ev); err != nil {
			t.Fatalf("frame %s is not an event: %v", data, err)
		}
		events = append(events, ev)
	}
	var kinds []string
	for _, ev := range events {
		k := "final"
		if ev.GetPartial() {
			k = "partial"
		}
		kinds = append(kinds, k+" "+ev.GetContent().GetParts()[0].GetText())
	}
	equalLines(t, "frames", kinds, []string{"partial Echo: ", "partial Is it raining?", "final Echo: Is it raining?"})

	// A missing session fails before the stream starts, with the gRPC code.
	resp, err = http.Post(s.httpURL+"/run_sse", "application/json",
		strings.NewReader(`{"appName": "weather", "userId": "u", "sessionId": "nope", "newMessage": {"parts": [{"text": "x"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil || resp.StatusCode != http.StatusNotFound || st.Code != 5 {
		t.Errorf("missing session: %d %+v %v", resp.StatusCode, st, err)
	}
}
