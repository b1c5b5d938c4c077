package main

import (
	"context"
	"fmt"
	"os/exec"
	"sync/atomic"
	"time"
)

// replicaControl kills and restarts one agentsvc replica: its start script
// writes the replica's process id to the pidfile and then execs agentsvc,
// so that the pidfile names the running replica, whoever started it.
type replicaControl struct {
	start, pidFile, addr string
	// inFlight counts the invocations the load has running on the
	// replica, so that a kill lands in the middle of some.
	inFlight atomic.Int64
}

// kill sends SIGKILL to the replica the pidfile names, after checking
// that the process is agentsvc, and waits until its port is closed.
func (r *replicaControl) kill() (int, error) {
	return killNamed(r.pidFile, "agentsvc", r.addr)
}

// restart runs the start script and waits until the replica listens.
func (r *replicaControl) restart(ctx context.Context) error {
	cmd := exec.Command(r.start)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start replica: %w", err)
	}
	// Reap it when it dies, killed or stopped by the script.
	go func() { _ = cmd.Wait() }()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		if listening(r.addr) {
			return nil
		}
		sleepUntil(ctx, time.Now().Add(50*time.Millisecond))
	}
	return fmt.Errorf("the replica does not listen on %s after its restart", r.addr)
}
