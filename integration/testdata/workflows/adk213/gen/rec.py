"""Recording harness: a scripted model, event dumps and a turn runner.

Run with a Python environment that has google-adk 2.13.0 installed.
"""
import asyncio
import json
import os
import re
from typing import AsyncGenerator

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.genai import types

OUT_DIR = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))

SCRIPT: list = []
REQUESTS: list = []
OBSERVED: list = []


def observe(what, value):
    """Notes a value seen inside user code (e.g. the node_input a node got)."""
    OBSERVED.append({"what": what, "value": _jsonable(value)})


def _jsonable(v):
    try:
        json.dumps(v)
        return v
    except TypeError:
        if hasattr(v, "model_dump"):
            return {"__type__": type(v).__name__, "value": json.loads(v.model_dump_json(exclude_none=True))}
        if isinstance(v, (list, tuple)):
            return [_jsonable(x) for x in v]
        if isinstance(v, dict):
            return {str(k): _jsonable(x) for k, x in v.items()}
        return {"__type__": type(v).__name__, "repr": repr(v)}


class Scripted(BaseLlm):
    """Replays SCRIPT: each item is a list of parts; a str is a text part, a
    tuple (name, args[, id]) a function call."""

    model: str = "scripted"

    @classmethod
    def supported_models(cls):
        return [r"scripted.*"]

    async def generate_content_async(self, llm_request, stream=False) -> AsyncGenerator[LlmResponse, None]:
        full = json.loads(llm_request.model_dump_json(exclude_none=True, exclude={"config": {"response_schema"}}))
        cfg = full.get("config", {})
        tools = []
        for t in cfg.get("tools", []) or []:
            for fd in t.get("function_declarations", []) or []:
                tools.append(fd)
        rec = {"contents": full.get("contents", []), "system_instruction": cfg.get("system_instruction"),
               "tool_names": [t.get("name") for t in tools]}
        if tools:
            rec["tool_declarations"] = tools
        if cfg.get("response_mime_type"):
            rec["response_mime_type"] = cfg["response_mime_type"]
        if llm_request.config and llm_request.config.response_schema is not None:
            rs = llm_request.config.response_schema
            rec["response_schema"] = rs.model_json_schema() if isinstance(rs, type) else _jsonable(rs)
        REQUESTS.append(rec)
        item = SCRIPT.pop(0)
        parts = []
        for p in item:
            if isinstance(p, str):
                parts.append(types.Part(text=p))
            else:
                parts.append(types.Part(function_call=types.FunctionCall(name=p[0], args=p[1], id=p[2] if len(p) > 2 else None)))
        yield LlmResponse(content=types.Content(role="model", parts=parts))


LLMRegistry.register(Scripted)


def dump(ev):
    d = json.loads(ev.model_dump_json(exclude_none=True, by_alias=True))
    for k in ("id", "timestamp", "invocationId"):
        d.pop(k, None)
    return d


def content_json(c):
    return json.loads(c.model_dump_json(exclude_none=True, by_alias=True))


def user_text(text):
    return types.Content(role="user", parts=[types.Part(text=text)])


def fr_content(name, fid, response):
    return types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(name=name, id=fid, response=response))])


def request_input_ids(events, name="adk_request_input"):
    """Interrupt ids of function calls named `name` in the given dumped events."""
    out = []
    for e in events:
        for p in (e.get("content") or {}).get("parts", []) or []:
            fc = p.get("functionCall")
            if fc and fc.get("name") == name:
                out.append(fc.get("id"))
    return out


async def run_turns(scenario, agent=None, app=None, turns=(), script=(), extra=None, write=True, invocation_ids=False):
    """Runs each turn (a Content, or a callable taking the list of previous
    turn records and returning a Content) and writes <scenario>.json."""
    from google.adk.runners import InMemoryRunner
    SCRIPT.clear(); SCRIPT.extend(script); REQUESTS.clear(); OBSERVED.clear()
    if app is not None:
        runner = InMemoryRunner(app=app)
        app_name = app.name
    else:
        runner = InMemoryRunner(agent=agent, app_name="demo")
        app_name = "demo"
    s = await runner.session_service.create_session(app_name=app_name, user_id="u1")
    recs = []
    for t in turns:
        msg = t(recs) if callable(t) else t
        rec = {"new_message": content_json(msg), "events": []}
        OBSERVED.clear()
        try:
            async for ev in runner.run_async(user_id="u1", session_id=s.id, new_message=msg):
                d = dump(ev)
                if invocation_ids:
                    d["invocationId"] = ev.invocation_id
                rec["events"].append(d)
        except Exception as e:  # recorded: the exception is part of the behaviour
            rec["error"] = {"type": type(e).__name__, "message": str(e)}
        if OBSERVED:
            rec["observed"] = list(OBSERVED)
        recs.append(rec)
    sess = await runner.session_service.get_session(app_name=app_name, user_id="u1", session_id=s.id)
    stored = []
    for e in sess.events:
        d = dump(e)
        if invocation_ids:
            d["invocationId"] = e.invocation_id
        stored.append(d)
    out = {"scenario": scenario, "turns": recs, "stored": stored, "state": _jsonable(sess.state), "requests": list(REQUESTS)}
    if extra:
        out.update(extra)
    if SCRIPT:
        out["unused_script"] = [[x if isinstance(x, str) else list(x) for x in it] for it in SCRIPT]
    if write:
        text = normalize_ids(json.dumps(out, indent=1, ensure_ascii=False))
        with open(os.path.join(OUT_DIR, scenario + ".json"), "w") as f:
            f.write(text + "\n")
    return out


_UUID = re.compile(r"(e-)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def normalize_ids(text):
    """Replaces generated invocation ids (e-<uuid>) with inv-N and other
    uuids with uuid-N, numbered by first appearance, so regenerating is stable."""
    seen = {}

    def repl(m):
        v = m.group(0)
        if v not in seen:
            kind = "inv" if v.startswith("e-") else "uuid"
            seen[v] = f"{kind}-{sum(1 for k in seen if k.startswith('e-') == (kind == 'inv')) + 1}"
        return seen[v]

    return _UUID.sub(repl, text)
