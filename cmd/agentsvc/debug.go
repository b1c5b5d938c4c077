package main

import (
	"log/slog"
	"net/http"
	"net/http/pprof"
	"time"
)

// serveDebug serves the Go runtime profiles on addr, for operators; it is
// off unless --debug-addr is set.
func serveDebug(addr string, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("debug endpoint", "addr", addr)
	if err := srv.ListenAndServe(); err != nil {
		log.Error("debug endpoint", "err", err)
	}
}
