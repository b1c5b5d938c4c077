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

// NotServedRoutes returns the method and path template of every route
// answered 501.
func NotServedRoutes() [][2]string {
	out := make([][2]string, len(notServedRoutes))
	for i, r := range notServedRoutes {
		out[i] = [2]string{r.method, r.path}
	}
	return out
}
