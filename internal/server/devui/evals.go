package devui

import (
	"io"
	"net/http"
)

// EvalRoutes answer the reads of ADK's evaluation and agent builder that
// the dev UI makes on every app load as an ADK API server without eval
// sets, eval results or builder files answers them: the lists empty, the
// builder's YAML "" (which keeps the UI's builder switch off). Writes,
// runs and single items stay not served (answered 501 by the server)
// until evaluation exists.
func EvalRoutes() []Route {
	emptyList := func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, "[]")
	}
	emptyObject := func(body string) func(http.ResponseWriter, *http.Request, map[string]string) {
		return func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		}
	}
	return []Route{
		{"GET", "/dev/apps/{app_name}/eval_sets", emptyList},
		{"GET", "/dev/apps/{app_name}/eval-sets", emptyObject(`{"evalSetIds":[]}`)},
		{"GET", "/dev/apps/{app_name}/eval_results", emptyList},
		{"GET", "/dev/apps/{app_name}/eval-results", emptyObject(`{"evalResultIds":[]}`)},
		{"GET", "/dev/apps/{app_name}/builder", func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		}},
	}
}
