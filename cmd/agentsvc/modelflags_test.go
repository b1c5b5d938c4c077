package main

import (
	"strings"
	"testing"
	"time"
)

func TestModelLimitFlags(t *testing.T) {
	t.Parallel()
	noEnv := func(string) string { return "" }
	o, err := parseFlags(nil, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if o.modelTimeout != 120*time.Second || o.maxModelResponseBytes != 8<<20 || o.maxModelChunks != 10_000 || o.maxInvocationTime != 10*time.Minute {
		t.Errorf("defaults %v %d %d %v, want 2m0s 8388608 10000 10m0s", o.modelTimeout, o.maxModelResponseBytes, o.maxModelChunks, o.maxInvocationTime)
	}
	env := map[string]string{"AGENTSVC_MODEL_TIMEOUT": "5s", "AGENTSVC_MAX_INVOCATION_TIME": "1m"}
	o, err = parseFlags([]string{"--max-model-response-bytes", "1024", "--max-model-chunks", "7"}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if o.modelTimeout != 5*time.Second || o.maxModelResponseBytes != 1024 || o.maxModelChunks != 7 || o.maxInvocationTime != time.Minute {
		t.Errorf("parsed %v %d %d %v, want 5s 1024 7 1m0s", o.modelTimeout, o.maxModelResponseBytes, o.maxModelChunks, o.maxInvocationTime)
	}
	for _, args := range [][]string{
		{"--model-timeout", "0s"},
		{"--max-model-response-bytes", "0"},
		{"--max-model-chunks", "-1"},
		{"--max-invocation-time", "-1s"},
	} {
		if _, err := parseFlags(args, noEnv); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("parseFlags(%v) = %v, want an error naming the flag", args, err)
		}
	}
}
