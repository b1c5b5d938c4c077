package main

import (
	"testing"

	"github.com/agentsvc/agentsvc/internal/server"
)

// TestProtectiveDefaults: agentsvc serve bounds the request bytes in flight
// and each user's invocations, rate and sessions unless told otherwise, and
// 0 turns each off.
func TestProtectiveDefaults(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	o, err := parseFlags(nil, none)
	if err != nil {
		t.Fatal(err)
	}
	if o.maxUserInvocations != 16 || o.userRate != 100 || o.userBurst != 200 || o.maxUserSessions != 10_000 ||
		o.maxInflightRequestBytes != 256<<20 || inflightBudget(o) != 256<<20 {
		t.Errorf("defaults: invocations %d, rate %v burst %d, sessions %d, in flight %d",
			o.maxUserInvocations, o.userRate, o.userBurst, o.maxUserSessions, o.maxInflightRequestBytes)
	}
	off, err := parseFlags([]string{"--max-inflight-request-bytes", "0", "--user-rate", "0",
		"--max-concurrent-invocations-per-user", "0", "--max-sessions-per-user", "0"}, none)
	if err != nil {
		t.Fatal(err)
	}
	if inflightBudget(off) >= 0 || off.userRate != 0 || off.maxUserInvocations != 0 || off.maxUserSessions != 0 {
		t.Errorf("off: %+v", off)
	}
	if _, err := parseFlags([]string{"--max-inflight-request-bytes", "-1"}, none); err == nil {
		t.Error("--max-inflight-request-bytes -1 accepted")
	}
	if server.DefaultMaxInflightRequestBytes != 256<<20 {
		t.Errorf("server's default budget %d", server.DefaultMaxInflightRequestBytes)
	}
}
