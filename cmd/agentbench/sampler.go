package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/procstat"
)

// memorySampleEvery is how often the server's memory is read.
const memorySampleEvery = 100 * time.Millisecond

// serverReport is what the sampler saw of the server: its memory, in
// bytes, and the CPU time it used meanwhile.
type serverReport struct {
	cpu     time.Duration
	peakRSS uint64
	// hwm is the kernel's high-water mark of the resident set (VmHWM).
	hwm uint64
	// peakWaiting is the most tool calls held at once, and
	// rssAtPeakWaiting the server's RSS the last time that many were.
	peakWaiting      int64
	rssAtPeakWaiting uint64
}

// serverSampler reads a process's memory until stopped, and its CPU time
// at start and stop.
type serverSampler struct {
	pid      int
	waiting  *atomic.Int64
	done     chan struct{}
	wg       sync.WaitGroup
	cpuStart time.Duration
	report   serverReport
}

// startServerSampler samples the memory of process pid, relating it to the
// number of waiting tool calls.
func startServerSampler(pid int, waiting *atomic.Int64) (*serverSampler, error) {
	if _, _, err := readMemory(pid); err != nil {
		return nil, err
	}
	cpu, err := readCPU(pid)
	if err != nil {
		return nil, err
	}
	m := &serverSampler{pid: pid, waiting: waiting, done: make(chan struct{}), cpuStart: cpu}
	m.wg.Go(m.loop)
	return m, nil
}

func (m *serverSampler) loop() {
	t := time.NewTicker(memorySampleEvery)
	defer t.Stop()
	for {
		m.sample()
		select {
		case <-t.C:
		case <-m.done:
			return
		}
	}
}

func (m *serverSampler) sample() {
	n := m.waiting.Load()
	rss, hwm, err := readMemory(m.pid)
	if err != nil {
		return
	}
	r := &m.report
	r.peakRSS = max(r.peakRSS, rss)
	r.hwm = max(r.hwm, hwm)
	if n > 0 && n >= r.peakWaiting {
		r.peakWaiting, r.rssAtPeakWaiting = n, rss
	}
}

// stop takes a last sample and returns the report.
func (m *serverSampler) stop() *serverReport {
	close(m.done)
	m.wg.Wait()
	m.sample()
	if cpu, err := readCPU(m.pid); err == nil {
		m.report.cpu = cpu - m.cpuStart
	}
	return &m.report
}

// readMemory returns the resident set size and its high-water mark, in
// bytes.
func readMemory(pid int) (rss, hwm uint64, err error) {
	rss, hwm, err = procstat.Memory(pid)
	if err != nil {
		return 0, 0, fmt.Errorf("server memory: %w", err)
	}
	return rss, hwm, nil
}

// readCPU returns the CPU time, user and system, process pid has used.
func readCPU(pid int) (time.Duration, error) {
	cpu, err := procstat.CPU(pid)
	if err != nil {
		return 0, fmt.Errorf("server CPU: %w", err)
	}
	return cpu, nil
}
