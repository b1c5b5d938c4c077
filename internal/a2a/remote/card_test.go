package remote

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFetchCardChecksRPCURL: the card's RPC URL must share the card's
// origin and use https or loopback http, as ADK's
// _validate_card_rpc_targets requires; a card past MaxResponseBytes fails.
func TestFetchCardChecksRPCURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, card, wantErr string
	}{
		{"same origin", `{"name":"x","url":"SELF/a2a/x"}`, ""},
		{"other origin", `{"name":"x","url":"http://127.0.0.1:1/a2a/x"}`, "Agent card RPC URL must have the same origin"},
		{"plain http elsewhere", `{"name":"x","url":"http://example.com/a2a/x"}`, "Agent card RPC URL must use https, or http on a loopback host"},
		{"no url", `{"name":"x"}`, "Agent card must have a valid URL for RPC communication"},
		{"not json", `nope`, "Failed to resolve AgentCard from URL"},
		{"too large", `{"name":"` + strings.Repeat("x", MaxResponseBytes) + `"}`, "response larger than the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewUnstartedServer(nil)
			body := strings.ReplaceAll(tt.card, "SELF", "http://"+ts.Listener.Addr().String())
			ts.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(body)) })
			ts.Start()
			defer ts.Close()
			a, err := New(Config{Name: "r", AgentCard: ts.URL + "/card.json"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = fetchCard(t.Context(), a.client, a.cfg.AgentCard)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestLimitedBody: a body of exactly the limit reads whole; one byte more
// fails.
func TestLimitedBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		size    int
		wantErr bool
	}{{10, false}, {11, true}} {
		b := &limitedBody{r: io.NopCloser(strings.NewReader(strings.Repeat("x", tt.size))), left: 10}
		got, err := io.ReadAll(b)
		if (err != nil) != tt.wantErr || (!tt.wantErr && len(got) != tt.size) {
			t.Fatalf("size %d: %d bytes, err %v", tt.size, len(got), err)
		}
	}
}
