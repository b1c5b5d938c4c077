package loadclient

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	t.Parallel()
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		name string
		d    []time.Duration
		p    float64
		want time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one", []time.Duration{time.Second}, 99, time.Second},
		{"median", d, 50, 50 * time.Millisecond},
		{"p99", d, 99, 99 * time.Millisecond},
		{"max", d, 100, 100 * time.Millisecond},
		{"p99 of ten is the largest", d[:10], 99, 10 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Percentile(tt.d, tt.p); got != tt.want {
				t.Errorf("Percentile(%v) = %v, want %v", tt.p, got, tt.want)
			}
		})
	}
}
