"""Compares two trees of conformance cases' recordings and sessions.

Usage: compare_recordings.py WANT_DIR GOT_DIR

For every case under WANT_DIR (adk-python's recordings), the files of the
same case under GOT_DIR (agentsvc's) must hold the same recordings and the
same session, leaving out what differs from run to run or names the
framework: ids, timestamps, HTTP options, labels, live settings.
"""

import pathlib
import sys

import yaml

DROP = {"id", "timestamp", "invocation_id", "last_update_time", "http_options", "labels", "live_connect_config",
        "thought_signature"}


def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in DROP and x not in (None, {}, [])}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v


def first_difference(path, want, got):
    if want == got:
        return None
    if isinstance(want, dict) and isinstance(got, dict):
        for k in sorted(set(want) | set(got)):
            d = first_difference(f"{path}.{k}", want.get(k), got.get(k))
            if d:
                return d
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (w, g) in enumerate(zip(want, got)):
            d = first_difference(f"{path}[{i}]", w, g)
            if d:
                return d
    return f"{path}: adk-python {want!r}, agentsvc {got!r}"


def main(want_dir, got_dir):
    failures = 0
    names = ("generated-recordings.yaml", "generated-recordings-sse.yaml", "generated-session.yaml",
             "generated-session-sse.yaml")
    for spec in sorted(pathlib.Path(want_dir).rglob("spec.yaml")):
        rel = spec.parent.relative_to(want_dir)
        for name in names:
            want = clean(yaml.safe_load((spec.parent / name).read_text()))
            got_file = pathlib.Path(got_dir) / rel / name
            got = clean(yaml.safe_load(got_file.read_text())) if got_file.exists() else None
            d = first_difference(f"{rel}/{name}", want, got)
            print(("FAIL " + d) if d else f"same {rel}/{name}")
            failures += bool(d)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main(*sys.argv[1:3])
