package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/auth/authtest"
)

// loopApp is a loop of at most 3 rounds whose agent has a tool the server
// runs (exit_loop) and a client tool (lookup_order).
const loopApp = `agent_class: LoopAgent
name: refine
max_iterations: 3
sub_agents:
  - config_path: drafter.yaml
`

const drafterAgent = `name: drafter
model: gemini-2.5-flash
description: Drafts an answer.
instruction: Draft.
tools:
  - name: exit_loop
  - name: lookup_order
`

// TestA2ACardFromA2ASDK: under --auth jwt, a2a-sdk's card resolver (0.3 and
// 1.x) reads an app's card without a token; the card declares the bearer
// scheme, names the JSON-RPC interface of protocol 0.3 that a 1.x client
// calls with its 0.3 transport, gives a loop's real max_iterations and no
// skill for a client tool. adk-python's RemoteA2aAgent, with a token, then
// calls the app.
func TestA2ACardFromA2ASDK(t *testing.T) {
	t.Parallel()
	pythons := a2aPythons(t)
	key := authtest.NewKey(t, "k1")
	jwks := filepath.Join(t.TempDir(), "jwks.json")
	if err := os.WriteFile(jwks, authtest.JWKS(t, key), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startStack(t, map[string]string{"refine": loopApp, "refine/drafter.yaml": drafterAgent, "weather": weatherAgent},
		"--a2a", "--auth", "jwt", "--jwks-file", jwks, "--jwt-issuer", authtest.Issuer, "--jwt-audience", authtest.Audience)
	for name, python := range pythons {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, python, "testdata/a2a/card.py",
				s.httpURL+"/a2a/refine/.well-known/agent-card.json").CombinedOutput()
			if err != nil {
				t.Fatalf("card.py: %v\n%s", err, out)
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			var card struct {
				URL             string            `json:"url"`
				ProtocolVersion string            `json:"protocol_version"`
				SecuritySchemes map[string]string `json:"security_schemes"`
				Security        [][]string        `json:"security"`
				Skills          []struct {
					ID, Description string
				} `json:"skills"`
			}
			if err := json.Unmarshal([]byte(lines[len(lines)-1]), &card); err != nil {
				t.Fatalf("card.py: %v\n%s", err, out)
			}
			if card.URL != s.httpURL+"/a2a/refine" || !strings.HasPrefix(card.ProtocolVersion, "0.3") {
				t.Errorf("interface %s %s", card.URL, card.ProtocolVersion)
			}
			if scheme := card.SecuritySchemes["bearer"]; (scheme != "http" && scheme != "http_auth_security_scheme") ||
				len(card.Security) != 1 || strings.Join(card.Security[0], ",") != "bearer" {
				t.Errorf("security %v %v", card.SecuritySchemes, card.Security)
			}
			var ids []string
			for _, sk := range card.Skills {
				ids = append(ids, sk.ID)
				if sk.ID == "refine" && !strings.Contains(sk.Description, "in a loop (max 3 iterations).") {
					t.Errorf("loop skill %q", sk.Description)
				}
			}
			if got := strings.Join(ids, " "); got != "refine refine-sub-agents drafter_drafter drafter_drafter-exit_loop" {
				t.Errorf("skills %s", got)
			}
			s.script(t, fakegemini.Text("Sunny."))
			remoteCall(t, python, s.httpURL+"/a2a/weather/.well-known/agent-card.json", "Weather?",
				[]string{"A2A_TOKEN=" + key.Token(t, "alice", nil)}, "Sunny.")
		})
	}
}
