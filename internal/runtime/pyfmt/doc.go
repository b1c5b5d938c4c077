// Package pyfmt prints protobuf JSON values the way Python prints the
// equivalent objects, so that text built from them matches what ADK (a Python
// framework) puts into model requests byte for byte.
//
// A [structpb.Value] maps to the object Python's json module would produce:
// null → None, bool → True/False, string → str, struct → dict, list → list,
// and number → int when the value is integral and within ±2^53 (JSON integers
// arrive as floats in protobuf), float otherwise. [Repr] and [Str] follow
// Python's repr() and str() of that object; [Quote] is repr() of a str.
//
// Protobuf keeps no key order for structs, so dict keys are printed in sorted
// order, which is the only deterministic choice.
//
// Every function is safe for concurrent use and appends into a caller's
// buffer where an Append form exists.
package pyfmt
