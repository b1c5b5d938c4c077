package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenAuditLog(t *testing.T) {
	t.Parallel()
	for _, dest := range []string{"", "off"} {
		log, closeFile, err := openAuditLog(dest)
		if err != nil || log != nil {
			t.Errorf("--audit-log %q: %v, %v; want no logger", dest, log, err)
		}
		_ = closeFile()
	}
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	for i := range 2 {
		log, closeFile, err := openAuditLog(path)
		if err != nil {
			t.Fatal(err)
		}
		log.Info("audit", "n", i)
		if err := closeFile(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines int
	for _, line := range splitLines(b) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil || m["msg"] != "audit" {
			t.Errorf("line %q: %v, want a JSON audit line", line, err)
		}
		lines++
	}
	if lines != 2 {
		t.Errorf("%d lines, want 2: the file is appended to", lines)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v; want 0600", fi.Mode(), err)
	}
	if _, _, err := openAuditLog(filepath.Join(t.TempDir(), "missing", "audit.jsonl")); err == nil {
		t.Error("a file in a missing directory: no error")
	}
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		out = append(out, b[:i])
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return out
}

func TestAuditLogFlag(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"default", nil, nil, "off"},
		{"flag", []string{"--audit-log", "stdout"}, nil, "stdout"},
		{"environment", nil, map[string]string{"AGENTSVC_AUDIT_LOG": "/var/log/agentsvc/audit.jsonl"}, "/var/log/agentsvc/audit.jsonl"},
		{"flag over environment", []string{"--audit-log", "stderr"}, map[string]string{"AGENTSVC_AUDIT_LOG": "stdout"}, "stderr"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o, err := parseFlags(tt.args, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if o.auditLog != tt.want {
				t.Errorf("audit log %q, want %q", o.auditLog, tt.want)
			}
		})
	}
}
