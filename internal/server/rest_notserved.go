package server

import (
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// notServedRoute is a route of ADK's API server that agentsvc answers 501,
// naming what is missing.
type notServedRoute struct {
	method, path, what string
}

const (
	evalFeature     = "Evaluation is not installed in agentsvc: ADK's eval sets, eval runs and eval results are not served"
	builderFeature  = "ADK's agent builder is not served by agentsvc: edit the Agent Config YAML and restart"
	testsFeature    = "ADK's agent tests are not served by agentsvc"
	liveFeature     = "live (bidirectional audio/video) runs are not served by agentsvc"
	traceFeature    = "the dev UI's traces are kept only when agentsvc runs with --trace-buffer N"
	identityFeature = "agent identity is not served by agentsvc"
)

// notServedRoutes are ADK 2.13's API-server routes that agentsvc does not
// serve. The evaluation and builder routes that the dev UI reads on every
// app load answer as an ADK without eval sets does (see [devui.EvalRoutes]).
var notServedRoutes = []notServedRoute{
	{"POST", "/agent-identity/finalize", identityFeature},
	{"GET", "/run_live", liveFeature},
	{"POST", "/dev/apps/{app_name}/builder/save", builderFeature},
	{"POST", "/dev/apps/{app_name}/builder/cancel", builderFeature},
	{"GET", "/dev/apps/{app_name}/tests", testsFeature},
	{"POST", "/dev/apps/{app_name}/tests/rebuild", testsFeature},
	{"POST", "/dev/apps/{app_name}/tests/run", testsFeature},
	{"GET", "/dev/apps/{app_name}/tests/{test_name}", testsFeature},
	{"PUT", "/dev/apps/{app_name}/tests/{test_name}", testsFeature},
	{"DELETE", "/dev/apps/{app_name}/tests/{test_name}", testsFeature},
	{"POST", "/dev/apps/{app_name}/eval-sets", evalFeature},
	{"POST", "/dev/apps/{app_name}/eval_sets/{eval_set_id}", evalFeature},
	{"POST", "/dev/apps/{app_name}/eval_sets/{eval_set_id}/run_eval", evalFeature},
	{"POST", "/dev/apps/{app_name}/eval-sets/{eval_set_id}/run", evalFeature},
	{"POST", "/dev/apps/{app_name}/eval_sets/{eval_set_id}/add_session", evalFeature},
	{"POST", "/dev/apps/{app_name}/eval-sets/{eval_set_id}/add-session", evalFeature},
	{"GET", "/dev/apps/{app_name}/eval_sets/{eval_set_id}/evals", evalFeature},
	{"GET", "/dev/apps/{app_name}/eval_sets/{eval_set_id}/evals/{eval_case_id}", evalFeature},
	{"PUT", "/dev/apps/{app_name}/eval_sets/{eval_set_id}/evals/{eval_case_id}", evalFeature},
	{"DELETE", "/dev/apps/{app_name}/eval_sets/{eval_set_id}/evals/{eval_case_id}", evalFeature},
	{"GET", "/dev/apps/{app_name}/eval-sets/{eval_set_id}/eval-cases/{eval_case_id}", evalFeature},
	{"PUT", "/dev/apps/{app_name}/eval-sets/{eval_set_id}/eval-cases/{eval_case_id}", evalFeature},
	{"DELETE", "/dev/apps/{app_name}/eval-sets/{eval_set_id}/eval-cases/{eval_case_id}", evalFeature},
	{"GET", "/dev/apps/{app_name}/eval_results/{eval_result_id}", evalFeature},
	{"GET", "/dev/apps/{app_name}/eval-results/{eval_result_id}", evalFeature},
	{"GET", "/dev/apps/{app_name}/metrics-info", evalFeature},
	{"GET", "/dev/apps/{app_name}/debug/trace/{event_id}", traceFeature},
	{"GET", "/dev/apps/{app_name}/debug/trace/session/{session_id}", traceFeature},
}

// notServed answers 501 with what agentsvc does not serve: the gateway's
// error body and, under "detail", the message where ADK's FastAPI server
// writes it, which the dev UI shows (a failed eval run's "not installed").
func (h *restRunner) notServed(what string) func(http.ResponseWriter, *http.Request, map[string]string) {
	return func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		st := withErrorInfo(status.Convert(statusError(codes.Unimplemented, v1.ErrorReason_NOT_SERVED.String(), what)))
		body, err := h.marshaler.Marshal(st.Proto())
		if err != nil || len(body) < 2 || body[0] != '{' {
			h.fail(w, r, st.Err())
			return
		}
		noteRESTError(r.Context(), st.Err())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotImplemented)
		_, _ = w.Write([]byte(`{"detail":`))
		_, _ = w.Write(jsonString(what))
		_, _ = w.Write([]byte(","))
		_, _ = w.Write(body[1:])
	}
}
