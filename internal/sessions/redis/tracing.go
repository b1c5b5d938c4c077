package redis

import (
	"github.com/redis/go-redis/extra/redisotel/v9"
	goredis "github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"
)

// instrumentTracing makes every command of client a span of tp. Statements
// stay out of the spans: the scripts' arguments are events and state, the
// users' data, and so does the caller's code position (a stack walk per
// command, and the same few lines of this package every time).
func instrumentTracing(client goredis.UniversalClient, tp trace.TracerProvider) {
	// InstrumentTracing fails only for client types it does not know.
	_ = redisotel.InstrumentTracing(client, redisotel.WithTracerProvider(tp), redisotel.WithDBStatement(false),
		redisotel.WithCallerEnabled(false), redisotel.WithDialFilter(true))
}
