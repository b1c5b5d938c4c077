package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// defaultGOGC is the collector's target of a server: the heap may grow to
// five times what is live before a collection. A replica's live heap is
// small next to the memory it is given, and each collection costs CPU in
// proportion to how often it runs; the memory limit below keeps the heap
// from outgrowing the container.
const defaultGOGC = 400

// memoryLimitShare is the share of the container's memory limit the Go
// heap may use before the collector works harder to stay under it: the
// rest is for stacks, buffers outside the heap and the runtime's own.
const memoryLimitShare = 0.9

// gcPolicy is the collector's policy of the process.
type gcPolicy struct {
	// gogc is the collector's percent; 0 leaves the runtime's (GOGC or
	// 100) alone.
	gogc int
	// memoryLimit is the soft limit of the Go runtime's memory, in bytes;
	// 0 leaves the runtime's (GOMEMLIMIT or none) alone.
	memoryLimit int64
	// limitSource says where memoryLimit comes from.
	limitSource string
}

// newGCPolicy decides the collector's policy from the --gogc and
// --memory-limit flags, the GOGC and GOMEMLIMIT variables (which win over
// the defaults, not over flags given) and the container's memory limit read
// from root (the cgroup files).
func newGCPolicy(gogc int, memoryLimit string, getenv func(string) string, root fs.FS) (gcPolicy, error) {
	var p gcPolicy
	switch {
	case gogc < 0:
		return p, fmt.Errorf("--gogc %d: must be 0 (the default policy) or more", gogc)
	case gogc > 0:
		p.gogc = gogc
	case getenv("GOGC") == "":
		p.gogc = defaultGOGC
	}
	switch v := strings.TrimSpace(memoryLimit); v {
	case "", "auto":
		if getenv("GOMEMLIMIT") != "" {
			return p, nil
		}
		if limit, ok := containerMemoryLimit(root); ok {
			p.memoryLimit = int64(float64(limit) * memoryLimitShare)
			p.limitSource = "container"
		}
	case "off":
		p.memoryLimit, p.limitSource = math.MaxInt64, "off"
	default:
		n, err := parseByteSize(v)
		if err != nil {
			return p, fmt.Errorf("--memory-limit %q: %w", v, err)
		}
		p.memoryLimit, p.limitSource = n, "flag"
	}
	return p, nil
}

// apply sets the policy on the runtime and logs it.
func (p gcPolicy) apply(log *slog.Logger) {
	if p.gogc > 0 {
		debug.SetGCPercent(p.gogc)
	}
	if p.memoryLimit > 0 {
		debug.SetMemoryLimit(p.memoryLimit)
	}
	gogc := debug.SetGCPercent(-1)
	debug.SetGCPercent(gogc)
	limit := debug.SetMemoryLimit(-1)
	attrs := []any{"gogc", gogc}
	if limit == math.MaxInt64 {
		attrs = append(attrs, "memory_limit", "none")
	} else {
		attrs = append(attrs, "memory_limit", limit)
	}
	if p.limitSource != "" {
		attrs = append(attrs, "memory_limit_from", p.limitSource)
	}
	log.Info("garbage collector", attrs...)
}

// containerMemoryLimit reads the memory limit of the process's cgroup
// (version 2, then version 1) under root, the file system's root. It
// reports false when there is none.
func containerMemoryLimit(root fs.FS) (int64, bool) {
	var paths []string
	if b, err := fs.ReadFile(root, "proc/self/cgroup"); err == nil {
		for line := range strings.Lines(string(b)) {
			// A line is "id:controllers:/path": id 0 with no controllers
			// for version 2, the memory controller's for version 1.
			f := strings.SplitN(strings.TrimSpace(line), ":", 3)
			if len(f) != 3 {
				continue
			}
			dir := strings.Trim(f[2], "/")
			switch {
			case dir == "":
			case f[0] == "0" && f[1] == "":
				paths = append(paths, "sys/fs/cgroup/"+dir+"/memory.max")
			case slices.Contains(strings.Split(f[1], ","), "memory"):
				paths = append(paths, "sys/fs/cgroup/memory/"+dir+"/memory.limit_in_bytes")
			}
		}
	}
	paths = append(paths, "sys/fs/cgroup/memory.max", "sys/fs/cgroup/memory/memory.limit_in_bytes")
	for _, path := range paths {
		b, err := fs.ReadFile(root, path)
		if err != nil {
			continue
		}
		v := strings.TrimSpace(string(b))
		if v == "max" {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 10, 64)
		// cgroup v1 says "no limit" with a number near the largest.
		if err != nil || n <= 0 || n >= 1<<62 {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

// byteUnits are the suffixes of a byte size, as GOMEMLIMIT spells them.
var byteUnits = []struct {
	suffix string
	shift  uint
}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}

// parseByteSize parses a byte count with an optional unit suffix (B, KiB,
// MiB, GiB, TiB), as GOMEMLIMIT does.
func parseByteSize(s string) (int64, error) {
	num, shift := s, uint(0)
	for _, u := range byteUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, errors.New("want a positive byte count such as 1536MiB or 2GiB, \"auto\" or \"off\"")
	}
	if n > math.MaxInt64>>shift {
		return 0, errors.New("too large")
	}
	return n << shift, nil
}
