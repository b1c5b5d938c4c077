package server

import (
	"net/http"
	"strings"
)

// Routes lists the routes of a handler made by [Server.HTTPHandler], as
// "METHOD /path" with "*" for each path parameter.
func Routes(h http.Handler) []string {
	if r, ok := h.(*requestIDs); ok {
		h = r.next
	}
	var out []string
	for _, r := range h.(*guard).routes.routes {
		for _, m := range r.methods {
			out = append(out, m+" /"+strings.Join(r.segments, "/"))
		}
	}
	return out
}
