package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/procstat"
)

// probe reads the server's goroutine count and forces its GC through its
// net/http/pprof endpoint, and its memory from /proc.
type probe struct {
	debugURL string
	pid      int
	client   *http.Client
}

func newProbe(debugURL string, pid int) *probe {
	return &probe{debugURL: strings.TrimSuffix(debugURL, "/"), pid: pid, client: &http.Client{Timeout: 10 * time.Second}}
}

// goroutines returns the server's goroutine count, the total that
// /debug/pprof/goroutine?debug=1 starts with.
func (p *probe) goroutines(ctx context.Context) (int, error) {
	body, err := p.get(ctx, "/debug/pprof/goroutine?debug=1", 4096)
	if err != nil {
		return 0, err
	}
	return parseGoroutineTotal(body)
}

// parseGoroutineTotal reads "goroutine profile: total N" on the first line.
func parseGoroutineTotal(body string) (int, error) {
	line, _, _ := strings.Cut(body, "\n")
	const prefix = "goroutine profile: total "
	if !strings.HasPrefix(line, prefix) {
		return 0, fmt.Errorf("goroutine profile: unexpected first line %q", line)
	}
	return strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, prefix)))
}

// gc makes the server run a garbage collection (the heap profile's gc=1).
func (p *probe) gc(ctx context.Context) error {
	_, err := p.get(ctx, "/debug/pprof/heap?gc=1", 0)
	return err
}

func (p *probe) get(ctx context.Context, path string, keep int64) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.debugURL+path, nil)
	if err != nil {
		return "", err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return "", fmt.Errorf("server debug endpoint: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("server debug endpoint %s: %s", path, resp.Status)
	}
	var sb strings.Builder
	if _, err := io.Copy(&sb, io.LimitReader(resp.Body, keep)); err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(bufio.NewReader(resp.Body), 64<<20))
	return sb.String(), nil
}

// rss returns the server's resident set size and its high-water mark.
func (p *probe) rss() (rss, hwm uint64, err error) {
	return procstat.Memory(p.pid)
}

// rssSampler keeps the highest RSS it reads, once a second, until stopped.
type rssSampler struct {
	p    *probe
	done chan struct{}
	wg   sync.WaitGroup
	peak uint64
}

func startRSSSampler(p *probe) *rssSampler {
	s := &rssSampler{p: p, done: make(chan struct{})}
	s.wg.Go(func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			if rss, _, err := p.rss(); err == nil {
				s.peak = max(s.peak, rss)
			}
			select {
			case <-t.C:
			case <-s.done:
				return
			}
		}
	})
	return s
}

func (s *rssSampler) stop() uint64 {
	close(s.done)
	s.wg.Wait()
	return s.peak
}
