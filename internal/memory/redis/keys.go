package redis

import "strings"

// keyspace builds the store's keys. With the default prefix "as", for app A
// and user U:
//
//	as:mem:{A/U}:sessions  hash: session id -> "<seq> <entries> <word> <word>..."
//	as:mem:{A/U}:added     string: how many sessions were ever added
//	as:mem:{A/U}:entries   hash: "<seq>:<index>" -> protobuf Event (content,
//	                       author, timestamp)
//	as:mem:{A/U}:w:<word>  sorted set: "<seq>:<index>" scored seq*2^24+index
//
// A session's seq is its place in search order, given when it is first
// added and kept when it is added again; index is an entry's place within
// the session. A word set's scores are therefore search order, and a
// session's members are one score range, which a re-add removes.
//
// The braces are a Redis Cluster hash tag: all the keys of one app and user
// sit in one slot (the slot of their sessions in the session store's
// cluster layout). Names are escaped so that '/', '{', '}' and '%' in them
// can neither make two users share a key nor move the hash tag; words are
// ASCII letters and need no escaping.
type keyspace struct {
	prefix string
}

// userKeys are the fixed keys of one app and user, and the start of their
// word keys.
type userKeys struct {
	sessions, added, entries, word string
}

func (k keyspace) user(app, user string) userKeys {
	base := k.prefix + ":mem:{" + escape(app) + "/" + escape(user) + "}:"
	return userKeys{
		sessions: base + "sessions",
		added:    base + "added",
		entries:  base + "entries",
		word:     base + "w:",
	}
}

var keyEscaper = strings.NewReplacer("%", "%25", "/", "%2F", "{", "%7B", "}", "%7D")

func escape(name string) string {
	return keyEscaper.Replace(name)
}
