package main

import (
	"log/slog"
	"slices"
	"testing"
	"time"
)

func TestHistorySessions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sessions string
		flag     int
		want     int
	}{
		{"memory://", -1, 0},
		{"memory://", 0, -1},
		{"memory://", 50, 50},
		{"redis://127.0.0.1:6379/0", -1, 0},
		{"rediss://cache:6380/1", 0, -1},
		{"redis://127.0.0.1:6379/0", 200, 200},
		{"redis+cluster://10.0.0.1:7000,10.0.0.2:7000", -1, 0},
	} {
		if got := historySessions(&options{sessions: c.sessions, historySessions: c.flag}); got != c.want {
			t.Errorf("historySessions(--sessions %s --history-sessions %d) = %d, want %d", c.sessions, c.flag, got, c.want)
		}
	}
}

func TestRESTLimitFlags(t *testing.T) {
	t.Parallel()
	env := map[string]string{"AGENTSVC_ALLOW_ORIGINS": "https://ui.example.com, ,http://x:1"}
	o, err := parseFlags([]string{"--http-body-timeout", "5s"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if o.maxRequestBytes != 16<<20 || o.httpBodyTimeout != 5*time.Second {
		t.Errorf("max request bytes %d, body timeout %v", o.maxRequestBytes, o.httpBodyTimeout)
	}
	if got := splitList(o.allowOrigins); !slices.Equal(got, []string{"https://ui.example.com", "http://x:1"}) {
		t.Errorf("allowed origins %q", got)
	}
	if _, err := parseFlags([]string{"--max-request-bytes", "0"}, func(string) string { return "" }); err == nil {
		t.Error("--max-request-bytes 0 accepted")
	}
}

func TestMaxDepthFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args    []string
		env     string
		want    int
		wantErr bool
	}{
		{nil, "", 64, false},
		{[]string{"--max-depth", "16"}, "", 16, false},
		{nil, "32", 32, false},
		{[]string{"--max-depth", "0"}, "", 0, true},
	} {
		o, err := parseFlags(c.args, func(name string) string {
			if name == "AGENTSVC_MAX_DEPTH" {
				return c.env
			}
			return ""
		})
		if (err != nil) != c.wantErr {
			t.Errorf("parseFlags(%v, AGENTSVC_MAX_DEPTH=%q) err = %v", c.args, c.env, err)
			continue
		}
		if err == nil && o.maxDepth != c.want {
			t.Errorf("parseFlags(%v, AGENTSVC_MAX_DEPTH=%q) max depth = %d, want %d", c.args, c.env, o.maxDepth, c.want)
		}
	}
}

func TestOpenSessionsSchemes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		uri     string
		wantErr bool
	}{
		{"memory://", false},
		{"redis://127.0.0.1:1/0", false},
		{"redis+cluster://127.0.0.1:1,127.0.0.1:2", false},
		{"rediss+cluster://127.0.0.1:1?wait_replicas=0", false},
		{"redis+cluster://127.0.0.1:1/5", true},
		{"cluster://127.0.0.1:1", true},
	} {
		o := &options{sessions: c.uri, redisTimeout: 20 * time.Millisecond}
		store, err := openSessions(t.Context(), o, slog.New(slog.DiscardHandler), nil)
		if (err != nil) != c.wantErr {
			t.Errorf("openSessions(%s) = %v, want error %v", c.uri, err, c.wantErr)
		}
		if store != nil {
			store.Close()
		}
	}
}
