package memory_test

import (
	"testing"
	"time"
	_ "time/tzdata" // the zones below, wherever the tests run

	"github.com/agentsvc/agentsvc/internal/memory"
)

// TestFormatTimestamp checks against what google-adk 1.39.1 formats
// (datetime.fromtimestamp(ts).isoformat() under TZ=zone).
func TestFormatTimestamp(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone    string
		seconds float64
		want    string
	}{
		{"UTC", 0, "1970-01-01T00:00:00"},
		{"UTC", 1, "1970-01-01T00:00:01"},
		{"UTC", 1700000000, "2023-11-14T22:13:20"},
		{"UTC", 1700000001.25, "2023-11-14T22:13:21.250000"},
		{"UTC", 1700000000.1234565, "2023-11-14T22:13:20.123456"},
		{"UTC", 1700000000.1234574, "2023-11-14T22:13:20.123457"},
		{"UTC", 1700000000.9999995, "2023-11-14T22:13:21"},
		{"UTC", 1700000000.0000005, "2023-11-14T22:13:20"},
		{"UTC", 1700000000.0000014, "2023-11-14T22:13:20.000001"},
		{"UTC", 1767225599.999999, "2025-12-31T23:59:59.999999"},
		{"UTC", 253402300799, "9999-12-31T23:59:59"},
		{"UTC", 1e9 + 0.5, "2001-09-09T01:46:40.500000"},
		{"UTC", -1.5, "1969-12-31T23:59:58.500000"},
		{"America/New_York", 0, "1969-12-31T19:00:00"},
		{"America/New_York", 1700000001.25, "2023-11-14T17:13:21.250000"},
		{"America/New_York", 1710054000.5, "2024-03-10T03:00:00.500000"},
		{"America/New_York", 1730613600, "2024-11-03T01:00:00"},
		{"America/New_York", -1.5, "1969-12-31T18:59:58.500000"},
		{"Asia/Kolkata", 1700000000.9999995, "2023-11-15T03:43:21"},
		{"Asia/Kolkata", 1767225599.999999, "2026-01-01T05:29:59.999999"},
		{"Asia/Kolkata", 1710054000.5, "2024-03-10T12:30:00.500000"},
	} {
		loc, err := time.LoadLocation(tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		if got := memory.FormatTimestamp(tc.seconds, loc); got != tc.want {
			t.Errorf("FormatTimestamp(%v, %s) = %q, want %q", tc.seconds, tc.zone, got, tc.want)
		}
	}
}

func BenchmarkFormatTimestamp(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		memory.FormatTimestamp(1700000001.25, time.UTC)
	}
}
