package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
)

// openAuditLog opens the destination of --audit-log: "off" (or empty) for
// none, "stderr", "stdout", or a file appended to (created 0600). The
// logger writes JSON lines; close releases the file.
func openAuditLog(dest string) (log *slog.Logger, closeFile func() error, err error) {
	var w io.Writer
	closeFile = func() error { return nil }
	switch dest {
	case "", "off":
		return nil, closeFile, nil
	case "stderr":
		w = os.Stderr
	case "stdout":
		w = os.Stdout
	default:
		f, err := os.OpenFile(dest, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--audit-log: %w", err)
		}
		w, closeFile = f, f.Close
	}
	return slog.New(slog.NewJSONHandler(w, nil)), closeFile, nil
}
