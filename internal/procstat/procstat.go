// Package procstat reads a process's memory and CPU time from Linux's
// /proc file system, for the load and soak commands that watch a running
// agentsvc. Its functions are safe for concurrent use.
package procstat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Memory returns the resident set size of process pid and its high-water
// mark, in bytes, from /proc/<pid>/status.
func Memory(pid int) (rss, hwm uint64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	return ParseStatus(data)
}

// ParseStatus reads VmRSS and VmHWM ("VmRSS:   123456 kB") of a
// /proc/<pid>/status file, in bytes.
func ParseStatus(data []byte) (rss, hwm uint64, err error) {
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (key != "VmRSS" && key != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %w", key, err)
		}
		if key == "VmRSS" {
			rss = kb << 10
		} else {
			hwm = kb << 10
		}
		found++
	}
	if found != 2 {
		return 0, 0, errors.New("VmRSS and VmHWM not found")
	}
	return rss, hwm, nil
}

// userHZ is the unit of the times in /proc/<pid>/stat: fixed at 100 per
// second in the kernel's user-space ABI.
const userHZ = 100

// CPU returns the CPU time, user and system, process pid has used.
func CPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return ParseStat(data)
}

// ParseStat reads utime and stime, fields 14 and 15, of a /proc/<pid>/stat
// line. The command name, field 2, is in parentheses and may hold spaces,
// so fields are counted from its closing parenthesis.
func ParseStat(data []byte) (time.Duration, error) {
	end := bytes.LastIndexByte(data, ')')
	if end < 0 {
		return 0, errors.New("no command name in stat")
	}
	fields := strings.Fields(string(data[end+1:]))
	// fields[0] is field 3 (state), so field n is fields[n-3].
	if len(fields) < 13 {
		return 0, errors.New("stat too short")
	}
	var ticks uint64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}
