package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// memorySampleEvery is how often the server's memory is read.
const memorySampleEvery = 100 * time.Millisecond

// memoryReport is what the sampler saw of the server's memory, in bytes.
type memoryReport struct {
	peakRSS uint64
	// hwm is the kernel's high-water mark of the resident set (VmHWM).
	hwm uint64
	// peakWaiting is the most tool calls held at once, and
	// rssAtPeakWaiting the server's RSS the last time that many were.
	peakWaiting      int64
	rssAtPeakWaiting uint64
}

// memorySampler reads a process's memory until stopped.
type memorySampler struct {
	pid     int
	waiting *atomic.Int64
	done    chan struct{}
	wg      sync.WaitGroup
	report  memoryReport
}

// startMemorySampler samples the memory of process pid, relating it to the
// number of waiting tool calls.
func startMemorySampler(pid int, waiting *atomic.Int64) (*memorySampler, error) {
	if _, _, err := readMemory(pid); err != nil {
		return nil, err
	}
	m := &memorySampler{pid: pid, waiting: waiting, done: make(chan struct{})}
	m.wg.Go(m.loop)
	return m, nil
}

func (m *memorySampler) loop() {
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

func (m *memorySampler) sample() {
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
func (m *memorySampler) stop() *memoryReport {
	close(m.done)
	m.wg.Wait()
	m.sample()
	return &m.report
}

// readMemory returns the resident set size and its high-water mark, in
// bytes, from /proc/<pid>/status.
func readMemory(pid int) (rss, hwm uint64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, fmt.Errorf("server memory: %w", err)
	}
	return parseStatus(data)
}

// parseStatus reads VmRSS and VmHWM ("VmRSS:   123456 kB") of a
// /proc/<pid>/status file.
func parseStatus(data []byte) (rss, hwm uint64, err error) {
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("server memory: %s: %w", key, err)
		}
		if key == "VmRSS" {
			rss = kb << 10
		} else {
			hwm = kb << 10
		}
		found++
	}
	if found != 2 {
		return 0, 0, fmt.Errorf("server memory: VmRSS and VmHWM not found")
	}
	return rss, hwm, nil
}
