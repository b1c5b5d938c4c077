package procstat

import (
	"os"
	"testing"
	"time"
)

func TestParseStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		data     string
		rss, hwm uint64
		ok       bool
	}{
		{"both", "Name:\tagentsvc\nVmHWM:\t  2048 kB\nVmRSS:\t  1024 kB\nThreads:\t9\n", 1 << 20, 2 << 20, true},
		{"missing hwm", "VmRSS:\t1024 kB\n", 0, 0, false},
		{"garbage", "VmRSS:\tmany kB\nVmHWM:\t1 kB\n", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rss, hwm, err := ParseStatus([]byte(tt.data))
			if (err == nil) != tt.ok || rss != tt.rss || hwm != tt.hwm {
				t.Errorf("ParseStatus = %d, %d, %v; want %d, %d, ok %v", rss, hwm, err, tt.rss, tt.hwm, tt.ok)
			}
		})
	}
}

func TestParseStat(t *testing.T) {
	t.Parallel()
	// A command name with spaces and parentheses; utime 250, stime 50.
	line := "4242 (agent svc (x)) S 1 4242 4242 0 -1 4194560 812 0 0 0 250 50 0 0 20 0 9 0 1234 1000 500"
	if got, err := ParseStat([]byte(line)); err != nil || got != 3*time.Second {
		t.Errorf("ParseStat = %v, %v; want 3s", got, err)
	}
	for _, bad := range []string{"4242 agentsvc S 1", "4242 (agentsvc) S 1 2 3", "4242 (a) S 1 1 1 0 -1 0 0 0 0 0 x 50"} {
		if _, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q): want an error", bad)
		}
	}
}

func TestSelf(t *testing.T) {
	t.Parallel()
	rss, hwm, err := Memory(os.Getpid())
	if err != nil || rss == 0 || hwm < rss {
		t.Errorf("Memory(self) = %d, %d, %v; want 0 < rss <= hwm", rss, hwm, err)
	}
	if _, err := CPU(os.Getpid()); err != nil {
		t.Errorf("CPU(self): %v", err)
	}
	if _, _, err := Memory(-1); err == nil {
		t.Error("Memory(-1): want an error")
	}
}
