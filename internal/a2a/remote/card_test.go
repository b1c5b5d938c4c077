package remote

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
		{"1.0 card", `{"name":"x","supportedInterfaces":[{"url":"SELF/","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`, ""},
		{"1.0 card elsewhere", `{"name":"x","supportedInterfaces":[{"url":"SELF/","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
			{"url":"https://example.com/","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}`, "Agent card RPC URL must have the same origin"},
		{"1.0 card without JSON-RPC", `{"name":"x","supportedInterfaces":[{"url":"SELF/","protocolBinding":"GRPC"}]}`,
			"Agent card must have a valid URL for RPC communication"},
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
			_, err = readCard(t.Context(), a.client, a.cfg.AgentCard)
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

// TestCardInterface: of a card's JSON-RPC interfaces, the one of version
// 1.0 is taken, else the first of 0.3 or above, as a2a-sdk 1.x takes it; a
// 0.3 card's url is an interface of its protocolVersion (0.3.0 unset).
func TestCardInterface(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, card, wantURL string
		wantLegacy          bool
	}{
		{"0.3 card", `{"url":"http://h/a","protocolVersion":"0.3.0"}`, "http://h/a", true},
		{"0.3 card without version", `{"url":"http://h/a"}`, "http://h/a", true},
		{"1.0 card", `{"supportedInterfaces":[{"url":"http://h/g","protocolBinding":"GRPC","protocolVersion":"1.0"},
			{"url":"http://h/j","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`, "http://h/j", false},
		{"1.0 preferred", `{"supportedInterfaces":[{"url":"http://h/old","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
			{"url":"http://h/new","protocolBinding":"JSONRPC","protocolVersion":"1.0.0"}]}`, "http://h/new", false},
		{"both forms", `{"url":"http://h/a","protocolVersion":"0.3.0","supportedInterfaces":[{"url":"http://h/a","protocolBinding":"JSONRPC","protocolVersion":"0.3.0"}]}`,
			"http://h/a", true},
		{"no version", `{"supportedInterfaces":[{"url":"http://h/a","protocolBinding":"JSONRPC"}]}`, "http://h/a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &card{}
			if err := json.Unmarshal([]byte(tt.card), c); err != nil {
				t.Fatal(err)
			}
			i, ok := c.jsonRPCInterface()
			if !ok || i.URL != tt.wantURL || i.legacy() != tt.wantLegacy {
				t.Fatalf("interface %+v (%v), want %s legacy %v", i, ok, tt.wantURL, tt.wantLegacy)
			}
		})
	}
}

// TestCardFromFile: agent_card may be the path of a JSON file, whose RPC
// URL is not held to the origin rules, as ADK reads it.
func TestCardFromFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "card.json")
	if err := os.WriteFile(good, []byte(`{"name":"x","url":"http://example.com/a2a/x"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`nope`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, wantErr string }{
		{good, ""},
		{bad, "Invalid JSON in agent card file"},
		{filepath.Join(dir, "missing.json"), "Failed to resolve AgentCard from file"},
		{dir, "Path is not a file"},
	} {
		a, err := New(Config{Name: "r", AgentCard: tt.path})
		if err != nil {
			t.Fatal(err)
		}
		c, err := readCard(t.Context(), a.client, a.cfg.AgentCard)
		switch {
		case tt.wantErr == "" && (err != nil || c.URL != "http://example.com/a2a/x"):
			t.Fatalf("%s: %+v, %v", tt.path, c, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Fatalf("%s: err = %v, want %q", tt.path, err, tt.wantErr)
		}
	}
}

// TestCheckAgentCard: a URL must be http or https of a host; anything
// without a scheme is a file path.
func TestCheckAgentCard(t *testing.T) {
	t.Parallel()
	for src, ok := range map[string]bool{
		"https://h/c.json": true, "http://127.0.0.1:1/c": true, "cards/weather.json": true, "/etc/card.json": true,
		"": false, "file:///etc/card.json": false, "https://": false, "a\nb": false,
	} {
		if err := CheckAgentCard(src); (err == nil) != ok {
			t.Errorf("%q: %v", src, err)
		}
	}
}
