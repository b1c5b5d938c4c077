"""Regenerates the adk213 recordings: python gen.py [module ...]."""
import asyncio
import importlib
import sys

MODULES = ["outputs", "routes", "retry", "validation", "hitl", "auth", "llm", "misc", "extra"]

if __name__ == "__main__":
    for m in sys.argv[1:] or MODULES:
        asyncio.run(importlib.import_module(m).run())
