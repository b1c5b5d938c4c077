package main

import (
	"strings"
	"testing"
	"time"
)

func TestSessionLeaseFlags(t *testing.T) {
	t.Parallel()
	noEnv := func(string) string { return "" }
	o, err := parseFlags(nil, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if o.sessionLeaseTTL != 5*time.Second || o.sessionBusyWait != 2*time.Second || sessionBusyWait(o) != 2*time.Second {
		t.Errorf("defaults %v %v, want 5s 2s", o.sessionLeaseTTL, o.sessionBusyWait)
	}
	env := map[string]string{"AGENTSVC_SESSION_LEASE_TTL": "12s"}
	o, err = parseFlags([]string{"--session-busy-wait", "0s"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if o.sessionLeaseTTL != 12*time.Second || sessionBusyWait(o) >= 0 {
		t.Errorf("parsed %v, busy wait %v; want 12s and no wait (negative)", o.sessionLeaseTTL, sessionBusyWait(o))
	}
	for _, args := range [][]string{
		{"--session-lease-ttl", "0s"},
		{"--session-lease-ttl", "900ms"},
		{"--session-lease-ttl", "2s", "--redis-timeout", "1s"},
		{"--session-busy-wait", "-1s"},
		{"--session-busy-wait", "61s"},
	} {
		if _, err := parseFlags(args, noEnv); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("parseFlags(%v) = %v, want an error naming the flag", args, err)
		}
	}
}
