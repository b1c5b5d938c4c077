package redis

import "strings"

// keyspace builds the store's keys. With the default prefix "as":
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
// The braces are a Cluster hash tag: every key of one session lives in one
// slot. Names are escaped so that '/', '{', '}' and '%' in them can neither
// make two sessions share a key nor move the hash tag.
type keyspace struct {
	prefix string
}

// sessionKeys are the keys of one session.
type sessionKeys struct {
	meta, events, ts, state, lease string
}

func (k keyspace) session(app, user, id string) sessionKeys {
	base := k.prefix + ":{" + escape(app) + "/" + escape(user) + "/" + escape(id) + "}:"
	return sessionKeys{
		meta:   base + "meta",
		events: base + "events",
		ts:     base + "ts",
		state:  base + "state",
		lease:  base + "lease",
	}
}

func (k keyspace) appState(app string) string {
	return k.prefix + ":app:" + escape(app) + ":state"
}

func (k keyspace) userState(app, user string) string {
	return k.prefix + ":user:" + escape(app) + "/" + escape(user) + ":state"
}

func (k keyspace) index(app, user string) string {
	return k.prefix + ":idx:" + escape(app) + "/" + escape(user)
}

var keyEscaper = strings.NewReplacer("%", "%25", "/", "%2F", "{", "%7B", "}", "%7D")

func escape(name string) string {
	return keyEscaper.Replace(name)
}
