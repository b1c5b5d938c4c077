package integration

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// bins holds the binaries built once for the package's tests.
var bins struct {
	agentsvc, fakegemini string
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentsvc-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bins.agentsvc = filepath.Join(dir, "agentsvc")
	bins.fakegemini = filepath.Join(dir, "fakegemini")
	for out, pkg := range map[string]string{bins.agentsvc: "../cmd/agentsvc", bins.fakegemini: "../integration/fakegemini/cmd/fakegemini"} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "build", pkg, err)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// process is a started binary whose output is scanned for a line.
type process struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	mu   sync.Mutex // guards out
	out  strings.Builder
}

// output returns what the process printed so far.
func (p *process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// start runs bin with args and waits until a line of its output matches
// ready, returning the submatches.
func start(t *testing.T, ready *regexp.Regexp, env []string, bin string, args ...string) (*process, []string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	p := &process{cmd: cmd, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		pw.Close()
		close(p.done)
	}()
	found := make(chan []string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			p.out.WriteString(line + "\n")
			p.mu.Unlock()
			if m := ready.FindStringSubmatch(line); m != nil {
				select {
				case found <- m:
				default:
				}
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s output:\n%s", filepath.Base(bin), p.output())
		}
	})
	select {
	case m := <-found:
		return p, m
	case <-p.done:
		t.Fatalf("%s exited before it was ready: %v\n%s", bin, p.err, p.output())
	case <-time.After(60 * time.Second):
		t.Fatalf("%s not ready after 60s:\n%s", bin, p.output())
	}
	return nil, nil
}

// wait waits for the process to exit and returns its exit error.
func (p *process) wait(ctx context.Context) error {
	select {
	case <-p.done:
		return p.err
	case <-ctx.Done():
		return ctx.Err()
	}
}
