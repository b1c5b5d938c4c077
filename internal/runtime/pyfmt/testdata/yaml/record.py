"""Records what PyYAML writes for the documents of TestAppendYAML.

Dumps each case as google-adk's DebugLoggingPlugin dumps its documents
(yaml.dump with default_flow_style=False, allow_unicode=True,
sort_keys=False, width=120) and writes the cases, with their output, to
cases.json. A case's value is JSON, where {"dict": [[key, value], ...]}
stands for a dict with that key order and {"float": x} for a Python
float; every other value is itself.

Usage, in a virtualenv holding google-adk 1.39.1 (PyYAML 6.0.4):
  python record.py > cases.json
"""

import json
import random
import sys

import yaml

# Characters that change how PyYAML quotes, escapes or folds a scalar.
ALPHABET = list("ab c:-#'\"\n\t?,[]{}&*!|>%@`~.0129eE+_\\=<") + [
    "\x00", "\x07", "\x1b", "\x85", "\xa0", "\u2028", "\u2029", "\ufeff",
    "é", "日", "\U0001f600", "\ud7ff", "\ue000", "\ufffe", " ", " ", " ", "\n\n",
]

FIXED = [
    "", "plain", "true", "True", "yes", "No", "on", "OFF", "null", "Null", "~", "0", "12", "-3", "+4", "0b101",
    "0o17", "017", "0x1F", "1_000", "190:20:30", "1.5", "-1.5e+3", ".5", "1e5", "1.", ".inf", "-.Inf", ".NaN",
    "2026-06-04", "2026-06-04T10:00:00.123456", "2026-6-4 1:00:00 Z", "<<", "=", "!", "&", "*", "- x", "-x",
    "? x", "?x", ": x", "a: b", "a:b", "a #b", "a#b", "#a", "---", "--- x", "...", "a\nb", "a\n\nb", " a", "a ",
    "a \nb", "a\n b", "\na", "a\n", "it's", "say \"hi\"", "tab\there", "x" * 130, ("word " * 40).strip(),
    ("word " * 40).strip() + "\nnext", "a" * 125 + " " + "b" * 10, "[Uploaded Artifact: \"report.pdf\"]",
    "You are an agent. Your internal name is \"root_agent\".",
    # Escapes where the line is folded.
    "\n".join("**Line %d**: see `x` and \"y\"." % i for i in range(30)),
    "\t".join("cell %d" % i for i in range(60)),
]


def case(value):
  return {"value": value, "yaml": yaml.dump(decode(value), default_flow_style=False, allow_unicode=True,
                                             sort_keys=False, width=120)}


def decode(v):
  if isinstance(v, dict):
    if "dict" in v:
      return {k: decode(x) for k, x in v["dict"]}
    return float(v["float"])
  if isinstance(v, list):
    return [decode(x) for x in v]
  return v


def main():
  rnd = random.Random(4)
  cases = [case({"dict": [["s", s]]}) for s in FIXED]
  cases += [case({"dict": [[s, "v"]]}) for s in FIXED if s]
  for _ in range(60):
    s = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(1, 60)))
    words = " ".join("".join(rnd.choice("abc'\"é") for _ in range(rnd.randrange(1, 12))) for _ in range(25))
    cases.append(case({"dict": [["k", s], ["long", words], ["list", [s, words]]]}))
  cases.append(case({"dict": [
      ["n", 1], ["f", {"float": 40.0}], ["f2", {"float": 0.7}], ["f3", {"float": 1e17}], ["f4", {"float": 1e-7}],
      ["b", True], ["none", None], ["empty", {"dict": []}], ["empty_list", []],
      ["nested", {"dict": [["list", [1, "two", {"dict": [["x", "y"], ["z", []]]}, [1, [2, {"dict": []}]]]],
                           ["deep", {"dict": [["a", {"dict": [["b", "line one\nline two"]]}]]}]]}],
      ["x" * 130, {"dict": [["k", "v"]]}],
      ["multi\nline key", [1, 2]],
      ["", "empty key"],
  ]}))
  json.dump(cases, sys.stdout, ensure_ascii=False, indent=0)


main()
