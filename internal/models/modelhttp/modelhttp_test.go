package modelhttp_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
)

func TestTransportCapsAnswers(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, strings.Repeat("x", 100))
	}))
	defer srv.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: modelhttp.Transport{Base: tr}}
	for _, tc := range []struct {
		max      int64
		exceeded bool
	}{{100, false}, {99, true}} {
		ctx, budget := modelhttp.WithBudget(t.Context(), tc.max)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if budget.Exceeded() != tc.exceeded || tc.exceeded != errors.Is(err, modelhttp.ErrBodyTooLarge) || int64(len(b)) > tc.max {
			t.Errorf("cap %d: read %d bytes, err %v, exceeded %v", tc.max, len(b), err, budget.Exceeded())
		}
	}
	if !modelhttp.IsTransportError(io.ErrUnexpectedEOF) || modelhttp.IsTransportError(errors.New("x")) {
		t.Error("IsTransportError")
	}
}
