package redis

import (
	"strings"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// keyspace builds the store's keys. On a standalone Redis (or a primary with
// replicas), with the default prefix "as":
//
//	as:{<app>/<user>/<id>}:meta    hash: ver, created, last_event, nonce, bytes
//	as:{<app>/<user>/<id>}:events  list: protobuf-encoded events, append-only
//	as:{<app>/<user>/<id>}:ts      sorted set: list index scored by timestamp
//	as:{<app>/<user>/<id>}:state   hash: session key -> JSON value
//	as:{<app>/<user>/<id>}:lease   string: lease owner, with PX expiry
//	as:app:<app>:state             hash: app key (no prefix) -> JSON value
//	as:user:<app>/<user>:state     hash: user key (no prefix) -> JSON value
//	as:idx:<app>/<user>            sorted set: session id scored by creation time
//
// On Redis Cluster the hash tag is the user's, so that a session's keys, its
// user's state and the user's index share one slot and the scripts that
// create, read, append and delete stay one round trip on one primary:
//
//	as:{<app>/<user>}/<id>:meta    (and :events, :ts, :state, :lease)
//	as:{<app>/<user>}:user         hash: user key (no prefix) -> JSON value
//	as:{<app>/<user>}:idx          sorted set: session id scored by creation time
//	as:{<app>/<user>}:noapp        never written: stands in for app state in scripts
//	as:app:<app>:state             hash: app key (no prefix) -> JSON value
//
// Only app state, shared by all of an app's users, lives in a slot of its
// own: an append whose delta writes app: keys costs one more round trip
// (HSET after the session's script), and a read fetches app state alongside
// the session's script, concurrently. All of one user's sessions sit on one
// primary; users spread over the primaries.
//
// The braces are a Cluster hash tag. Names are escaped so that '/', '{', '}'
// and '%' in them can neither make two sessions share a key nor move the
// hash tag; the key prefix must not hold braces.
type keyspace struct {
	prefix string
	// cluster selects the Redis Cluster layout.
	cluster bool
}

// sessionKeys are the keys of one session.
type sessionKeys struct {
	meta, events, ts, state, lease string
}

func (k keyspace) session(app, user, id string) sessionKeys {
	base := k.prefix + ":{" + escape(app) + "/" + escape(user) + "/" + escape(id) + "}:"
	if k.cluster {
		base = k.userTag(app, user) + "/" + escape(id) + ":"
	}
	return sessionKeys{
		meta:   base + "meta",
		events: base + "events",
		ts:     base + "ts",
		state:  base + "state",
		lease:  base + "lease",
	}
}

// read returns the keys a reading script declares: meta, events, ts,
// state, app state (see scriptAppState), user state.
func (k keyspace) read(req sessions.GetRequest) []string {
	sk := k.session(req.AppName, req.UserID, req.SessionID)
	return []string{sk.meta, sk.events, sk.ts, sk.state,
		k.scriptAppState(req.AppName, req.UserID), k.userState(req.AppName, req.UserID)}
}

func (k keyspace) appState(app string) string {
	return k.prefix + ":app:" + escape(app) + ":state"
}

func (k keyspace) userState(app, user string) string {
	if k.cluster {
		return k.userTag(app, user) + ":user"
	}
	return k.prefix + ":user:" + escape(app) + "/" + escape(user) + ":state"
}

func (k keyspace) index(app, user string) string {
	if k.cluster {
		return k.userTag(app, user) + ":idx"
	}
	return k.prefix + ":idx:" + escape(app) + "/" + escape(user)
}

// scriptAppState is the key a script declares for app state: the app's hash
// on one node; on a cluster, where app state is in another slot, an empty
// key in the user's slot, and the caller reads and writes app state itself.
func (k keyspace) scriptAppState(app, user string) string {
	if k.cluster {
		return k.userTag(app, user) + ":noapp"
	}
	return k.appState(app)
}

// userTag is the start of a user's keys on a cluster, its hash tag included.
func (k keyspace) userTag(app, user string) string {
	return k.prefix + ":{" + escape(app) + "/" + escape(user) + "}"
}

var keyEscaper = strings.NewReplacer("%", "%25", "/", "%2F", "{", "%7B", "}", "%7D")

func escape(name string) string {
	return keyEscaper.Replace(name)
}
