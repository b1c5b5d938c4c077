"""Random graphs of function and join nodes that do not await, and the
order in which google-adk 2.13.0 emits their events.

Each node returns an output (one event) or nothing (no event); a join
emits its output. The order is deterministic in ADK for such nodes.

    python order.py [count]   # writes internal/runtime/graph/testdata/order_random.json
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sys
from pathlib import Path

from google.adk.runners import InMemoryRunner
from google.adk.workflow import JoinNode, Workflow
from google.genai import types

logging.disable(logging.CRITICAL)


def function(name: str, emits: bool):  # type: ignore[no-untyped-def]
    def f(node_input):  # type: ignore[no-untyped-def]
        return name if emits else None
    f.__name__ = name
    return f


def graph(rng: random.Random) -> dict:  # type: ignore[type-arg]
    names = [f"n{i}" for i in range(rng.randint(2, 8))]
    edges, joins, silent = [], [], []
    for i, n in enumerate(names):
        preds = ["START"] if i == 0 else rng.sample(["START"] + names[:i], min(rng.choice([1, 1, 1, 2, 2, 3]), i + 1))
        if len(preds) >= 2 and "START" not in preds and rng.random() < 0.5:
            joins.append(n)
        elif rng.random() < 0.3:
            silent.append(n)
        edges += [[p, n] for p in preds]
    rng.shuffle(edges)
    return {"edges": edges, "joins": joins, "silent": silent, "max_concurrency": rng.choice([0, 0, 0, 1, 2])}


async def order(g: dict) -> list[str]:  # type: ignore[type-arg]
    nodes: dict = {"START": "START"}  # type: ignore[type-arg]
    for f, t in g["edges"]:
        for n in (f, t):
            if n not in nodes:
                nodes[n] = JoinNode(name=n) if n in g["joins"] else function(n, n not in g["silent"])
    wf = Workflow(name="wf", edges=[(nodes[f], nodes[t]) for f, t in g["edges"]],
                  max_concurrency=g["max_concurrency"] or None)
    runner = InMemoryRunner(node=wf, app_name="app")
    session = await runner.session_service.create_session(app_name="app", user_id="u")
    out = []
    try:
        async for e in runner.run_async(user_id="u", session_id=session.id,
                                        new_message=types.Content(role="user", parts=[types.Part(text="go")])):
            if not e.error_code and e.node_info and e.node_info.path.count("/") == 1:
                out.append(e.node_info.path.split("/")[1])
    except Exception:  # several terminal outputs: the order before it stands
        pass
    return out


async def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    cases = []
    for seed in range(count):
        g = graph(random.Random(seed))
        g["want"] = await order(g)
        cases.append(g)
    Path(__file__).resolve().parents[5].joinpath("internal/runtime/graph/testdata/order_random.json").write_text(json.dumps(cases, indent=1) + "\n")


asyncio.run(main())
