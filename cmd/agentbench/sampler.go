package main

import (
	"bufio"
	"bytes"
	"errors"
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

// userHZ is the unit of the times in /proc/<pid>/stat: fixed at 100 per
// second in the kernel's user-space ABI.
const userHZ = 100

// readCPU returns the CPU time, user and system, process pid has used.
func readCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("server CPU: %w", err)
	}
	return parseStat(data)
}

// parseStat reads utime and stime, fields 14 and 15, of a /proc/<pid>/stat
// line. The command name, field 2, is in parentheses and may hold spaces,
// so fields are counted from its closing parenthesis.
func parseStat(data []byte) (time.Duration, error) {
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0, errors.New("server CPU: no command name in stat")
	}
	fields := strings.Fields(string(data[end+1:]))
	// fields[0] is field 3 (state), so field n is fields[n-3].
	if len(fields) < 13 {
		return 0, errors.New("server CPU: stat too short")
	}
	var ticks uint64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("server CPU: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
