package fakegemini_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// BenchmarkHandler measures the default answer served concurrently, in
// process, without a network.
func BenchmarkHandler(b *testing.B) {
	for _, stream := range []bool{false, true} {
		name, path := "unary", "/v1beta/models/m:generateContent"
		if stream {
			name, path = "stream", "/v1beta/models/m:streamGenerateContent?alt=sse"
		}
		b.Run(name, func(b *testing.B) {
			h := fakegemini.New(fakegemini.WithMaxRecorded(100)).Handler()
			body := requestBody("how is the weather today", true)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
					if rec.Code != http.StatusOK {
						b.Errorf("status %d", rec.Code)
					}
				}
			})
		})
	}
}
