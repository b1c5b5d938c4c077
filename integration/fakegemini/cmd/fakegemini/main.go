// Command fakegemini serves the fake Gemini REST API of package fakegemini
// until it receives SIGINT or SIGTERM.
//
//	fakegemini [--addr 127.0.0.1:8090] [--script script.json] [--latency 100ms]
//
// Point the service at it with GOOGLE_GEMINI_BASE_URL=http://ADDR and script
// it through its control API (POST /_fake/script, see package fakegemini).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		slog.Error("fakegemini failed", "err", err)
		os.Exit(1)
	}
}

// run parses args, serves until ctx ends, and shuts down gracefully.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fakegemini", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8090", "address to listen on")
	scriptPath := fs.String("script", "", "JSON script to load at start (see package fakegemini)")
	latency := fs.Duration("latency", 0, "delay before every answer")
	verbose := fs.Bool("v", false, "log every answer")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(logger)

	srv := fakegemini.New(fakegemini.WithLogger(logger), fakegemini.WithLatency(*latency))
	if *scriptPath != "" {
		if err := loadScript(srv, *scriptPath); err != nil {
			return err
		}
		logger.Info("script loaded", "path", *scriptPath)
	}

	baseURL, err := srv.Start(*addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "fakegemini listening on %s\n", baseURL)
	logger.Info("fakegemini started", "url", baseURL, "latency", *latency)

	<-ctx.Done()
	logger.Info("fakegemini stopping")
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// loadScript applies the script file at path.
func loadScript(srv *fakegemini.Server, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read script: %w", err)
	}
	var sc fakegemini.Script
	if err := json.Unmarshal(b, &sc); err != nil {
		return fmt.Errorf("parse script %s: %w", path, err)
	}
	if err := srv.Apply(sc); err != nil {
		return fmt.Errorf("script %s: %w", path, err)
	}
	return nil
}
