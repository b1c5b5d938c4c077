"""Graph validation errors: exception type and message, and when they are raised."""
import json
import os

from google.genai import types
from google.adk.agents import LlmAgent
from google.adk.runners import InMemoryRunner
from google.adk.workflow import DEFAULT_ROUTE, Edge, JoinNode, Workflow
from google.adk.workflow._node import node

from rec import OUT_DIR, Scripted


def fn(name):
    def f(node_input):
        return name
    f.__name__ = name
    return node(f)


async def _try(build):
    """Returns where the error surfaced: construction or first run."""
    try:
        wf = build()
    except Exception as e:
        r = {"stage": "construct", "type": type(e).__name__, "message": str(e)}
        errs = getattr(e, "errors", None)
        if callable(errs) and len(e.errors()) == 1 and "error" in (e.errors()[0].get("ctx") or {}):
            inner = e.errors()[0]["ctx"]["error"]
            r["inner_type"] = type(inner).__name__
            r["inner_message"] = str(inner)
        return r
    try:
        runner = InMemoryRunner(agent=wf, app_name="demo")
        s = await runner.session_service.create_session(app_name="demo", user_id="u1")
        events = []
        async for ev in runner.run_async(user_id="u1", session_id=s.id, new_message=types.Content(role="user", parts=[types.Part(text="hi")])):
            events.append(json.loads(ev.model_dump_json(exclude_none=True, by_alias=True, exclude={"id", "timestamp", "invocation_id"})))
        return {"stage": "none", "events": events}
    except Exception as e:
        return {"stage": "run", "type": type(e).__name__, "message": str(e)}


def cases():
    a, b, c = fn("a"), fn("b"), fn("c")
    a2 = fn("a")
    task_agent = LlmAgent(name="tasker", model=Scripted(), instruction="do", mode="task")
    chat_agent = LlmAgent(name="chatter", model=Scripted(), instruction="do", mode="chat")
    return {
        "unknown_node_name_string": lambda: Workflow(name="w", edges=[("START", "nosuch")]),
        "unknown_node_name_string_mid": lambda: Workflow(name="w", edges=[("START", a, "b")]),
        "unreachable_node": lambda: Workflow(name="w", edges=[("START", a), (b, c)]),
        "duplicate_node_names": lambda: Workflow(name="w", edges=[("START", a, a2)]),
        "duplicate_node_names_parallel": lambda: Workflow(name="w", edges=[("START", (a, a2))]),
        "no_start": lambda: Workflow(name="w", edges=[(a, b)]),
        "edge_into_start": lambda: Workflow(name="w", edges=[("START", a, "START")]),
        "route_on_start_edge": lambda: Workflow(name="w", edges=[("START", {"x": a})]),
        "duplicate_edge": lambda: Workflow(name="w", edges=[("START", a, b), (a, b)]),
        "default_route_in_list": lambda: Workflow(name="w", edges=[("START", a), Edge(from_node=a, to_node=b, route=["x", DEFAULT_ROUTE])]),
        "unconditional_cycle": lambda: Workflow(name="w", edges=[("START", a, b, a)]),
        "conditional_cycle_ok_static": lambda: Workflow(name="w", edges=[("START", a, b), (b, {"again": a})]),
        "chat_mode_agent_after_node": lambda: Workflow(name="w", edges=[("START", a, chat_agent)]),
        "empty_routing_map": lambda: Workflow(name="w", edges=[("START", a, {})]),
        "bad_routing_key": lambda: Workflow(name="w", edges=[("START", a, {1.5: b})]),
        "consecutive_routing_maps": lambda: Workflow(name="w", edges=[("START", a, {"x": b}, {"y": c})]),
        "no_edges": lambda: Workflow(name="w", edges=[]),
        "invalid_edge_item": lambda: Workflow(name="w", edges=["START"]),
        "invalid_node_type": lambda: Workflow(name="w", edges=[("START", 42)]),
        "join_with_one_pred_ok": lambda: Workflow(name="w", edges=[("START", a, JoinNode(name="j"))]),
        "max_parallel_without_parallel": lambda: node(lambda node_input: 1, name="p", max_parallel_workers=2),
        "auth_without_rerun": lambda: __import__("google.adk.workflow._function_node", fromlist=["x"]).FunctionNode(func=lambda: 1, name="z", auth_config=_auth_cfg()),
    }


def _auth_cfg():
    from fastapi.openapi.models import APIKey, APIKeyIn
    from google.adk.auth.auth_tool import AuthConfig
    return AuthConfig(auth_scheme=APIKey(**{"in": APIKeyIn.header, "name": "X-Key"}))


async def run():
    out = {}
    for name, build in cases().items():
        out[name] = await _try(build)
    with open(os.path.join(OUT_DIR, "validation_errors.json"), "w") as f:
        json.dump({"scenario": "validation_errors", "cases": out}, f, indent=1, ensure_ascii=False)
        f.write("\n")
