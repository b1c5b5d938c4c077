package main

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"
)

func TestNewGCPolicy(t *testing.T) {
	v2 := fstest.MapFS{
		"proc/self/cgroup":                          {Data: []byte("0::/kubepods/pod1/c1\n")},
		"sys/fs/cgroup/kubepods/pod1/c1/memory.max": {Data: []byte("1073741824\n")},
		"sys/fs/cgroup/memory.max":                  {Data: []byte("max\n")},
	}
	v2Root := fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("2147483648\n")}}
	v2Max := fstest.MapFS{"sys/fs/cgroup/memory.max": {Data: []byte("max\n")}}
	v1 := fstest.MapFS{"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("536870912\n")}}
	v1Process := fstest.MapFS{
		"proc/self/cgroup": {Data: []byte("4:memory:/process_api/abc\n0::/\n")},
		"sys/fs/cgroup/memory/process_api/abc/memory.limit_in_bytes": {Data: []byte("268435456\n")},
		"sys/fs/cgroup/memory/memory.limit_in_bytes":                 {Data: []byte("9223372036854771712\n")},
	}
	v1None := fstest.MapFS{"sys/fs/cgroup/memory/memory.limit_in_bytes": {Data: []byte("9223372036854771712\n")}}
	for _, c := range []struct {
		name        string
		gogc        int
		limit       string
		env         map[string]string
		root        fstest.MapFS
		want        gcPolicy
		wantErrText string
	}{
		{name: "defaults without a container", limit: "auto", root: fstest.MapFS{}, want: gcPolicy{gogc: defaultGOGC}},
		{name: "cgroup v2 of the process", limit: "auto", root: v2,
			want: gcPolicy{gogc: defaultGOGC, memoryLimit: 966367641, limitSource: "container"}},
		{name: "cgroup v2 at the root", limit: "auto", root: v2Root,
			want: gcPolicy{gogc: defaultGOGC, memoryLimit: 1932735283, limitSource: "container"}},
		{name: "cgroup v2 without a limit", limit: "auto", root: v2Max, want: gcPolicy{gogc: defaultGOGC}},
		{name: "cgroup v1", limit: "auto", root: v1,
			want: gcPolicy{gogc: defaultGOGC, memoryLimit: 483183820, limitSource: "container"}},
		{name: "cgroup v1 of the process", limit: "auto", root: v1Process,
			want: gcPolicy{gogc: defaultGOGC, memoryLimit: 241591910, limitSource: "container"}},
		{name: "cgroup v1 without a limit", limit: "auto", root: v1None, want: gcPolicy{gogc: defaultGOGC}},
		{name: "GOGC and GOMEMLIMIT win over the defaults", limit: "auto", root: v2,
			env: map[string]string{"GOGC": "150", "GOMEMLIMIT": "1GiB"}, want: gcPolicy{}},
		{name: "flags win over the variables", gogc: 200, limit: "1536MiB", root: v2,
			env:  map[string]string{"GOGC": "150", "GOMEMLIMIT": "1GiB"},
			want: gcPolicy{gogc: 200, memoryLimit: 1536 << 20, limitSource: "flag"}},
		{name: "limit off", limit: "off", root: v2, want: gcPolicy{gogc: defaultGOGC, memoryLimit: math.MaxInt64, limitSource: "off"}},
		{name: "plain bytes", limit: "1000000", root: v2, want: gcPolicy{gogc: defaultGOGC, memoryLimit: 1000000, limitSource: "flag"}},
		{name: "negative gogc", gogc: -1, limit: "auto", root: v2, wantErrText: "--gogc -1"},
		{name: "bad limit", limit: "lots", root: v2, wantErrText: `--memory-limit "lots"`},
		{name: "zero limit", limit: "0GiB", root: v2, wantErrText: "positive byte count"},
		{name: "limit overflows", limit: "9000000000TiB", root: v2, wantErrText: "too large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := newGCPolicy(c.gogc, c.limit, func(k string) string { return c.env[k] }, c.root)
			if c.wantErrText != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErrText) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErrText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("policy = %+v, want %+v", got, c.want)
			}
		})
	}
}
