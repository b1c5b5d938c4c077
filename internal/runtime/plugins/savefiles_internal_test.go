package plugins

import "testing"

func TestModelAccessible(t *testing.T) {
	t.Parallel()
	for uri, want := range map[string]bool{
		"gs://b/x": true, "HTTPS://h/x": true, "http://h/x": true, " \tgs://b/x": true, "g\ns://b/x": true,
		"s3://b/x": false, "memory://apps/a": false, "file:///tmp/x": false, "gs": false, "1gs://b": false,
		"g_s://b": false, "": false,
	} {
		if got := modelAccessible(uri); got != want {
			t.Errorf("modelAccessible(%q) = %v, want %v", uri, got, want)
		}
	}
}
