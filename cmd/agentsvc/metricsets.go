package main

import (
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// maxMetricSets bounds the attribute sets an attrSets keeps: a request's
// Host header is one of the HTTP attributes, and callers choose it.
const maxMetricSets = 1024

// attrSets keeps the metric attribute sets of the keys seen, so that a
// measurement reuses its key's set instead of building and hashing it
// again; past maxMetricSets keys a set is built each time.
type attrSets[K comparable] struct {
	mu   sync.RWMutex
	sets map[K]metric.MeasurementOption
}

// get returns the set of k, of the attributes attrs gives for it.
func (c *attrSets[K]) get(k K, attrs func(K) []attribute.KeyValue) metric.MeasurementOption {
	c.mu.RLock()
	set, ok := c.sets[k]
	c.mu.RUnlock()
	if ok {
		return set
	}
	set = metric.WithAttributeSet(attribute.NewSet(attrs(k)...))
	c.mu.Lock()
	if c.sets == nil {
		c.sets = make(map[K]metric.MeasurementOption)
	}
	if len(c.sets) < maxMetricSets {
		c.sets[k] = set
	}
	c.mu.Unlock()
	return set
}
