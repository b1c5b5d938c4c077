package config

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestRemoteA2aAgentConfig: a RemoteA2aAgent sub-agent loads with its card
// URL; a bad or missing card, LlmAgent fields or the fields on another
// class are refused with the file and field named.
func TestRemoteA2aAgentConfig(t *testing.T) {
	t.Parallel()
	const root = "name: root\nmodel: m\nsub_agents:\n  - config_path: remote.yaml\n"
	tests := []struct {
		name, root, remote, wantErr string
	}{
		{name: "ok", remote: "agent_class: RemoteA2aAgent\nname: r\nagent_card: https://example.com/a2a/x/.well-known/agent-card.json\ntimeout: 10\n"},
		{name: "no card", remote: "agent_class: RemoteA2aAgent\nname: r\n",
			wantErr: "s/remote.yaml: agent_card: required for RemoteA2aAgent"},
		{name: "not http", remote: "agent_class: RemoteA2aAgent\nname: r\nagent_card: file:///etc/card.json\n",
			wantErr: `s/remote.yaml: agent_card: "file:///etc/card.json" is not an http or https URL`},
		{name: "model", remote: "agent_class: RemoteA2aAgent\nname: r\nmodel: m\nagent_card: https://example.com/c\n",
			wantErr: "s/remote.yaml: model: does not apply to RemoteA2aAgent"},
		{name: "timeout", remote: "agent_class: RemoteA2aAgent\nname: r\nagent_card: https://example.com/c\ntimeout: -1\n",
			wantErr: "s/remote.yaml: timeout: -1 is not between 0 and 3600 seconds"},
		{name: "card on LlmAgent", root: "name: root\nmodel: m\nagent_card: https://example.com/c\n",
			wantErr: "s/root_agent.yaml: agent_card: only applies to RemoteA2aAgent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := fstest.MapFS{}
			if tt.root != "" {
				fsys["s/root_agent.yaml"] = &fstest.MapFile{Data: []byte(tt.root)}
			} else {
				fsys["s/root_agent.yaml"] = &fstest.MapFile{Data: []byte(root)}
				fsys["s/remote.yaml"] = &fstest.MapFile{Data: []byte(tt.remote)}
			}
			apps, err := LoadAll(fsys)
			if err == nil {
				_, _, err = Build(apps[0])
			}
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}
