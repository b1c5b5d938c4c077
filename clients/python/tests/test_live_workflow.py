"""Live tests of workflow function nodes: the ``approvals`` app's workflow
(START → prepare → flaky → approval_gate → finish) runs its nodes in this
process, pauses for the user's approval and is resumed.

They need the live stack of test_live.py (scripts/with-stack.sh).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import agentsvc
from tests.test_live import ADDR, FAKE_URL, bounded, user_id

if not (ADDR and FAKE_URL):
    pytest.skip("no live stack (AGENTSVC_ADDR, FAKEGEMINI_URL)", allow_module_level=True)

pytestmark = pytest.mark.live

APPROVAL_SCHEMA = {"type": "object", "properties": {"approved": {"type": "boolean"}}, "required": ["approved"]}


def approval_nodes(calls: Counter[str], attempts: list[int] | None = None) -> list[agentsvc.Node]:
    """The approvals app's function nodes, counting their calls (and
    recording flaky's attempts)."""

    @agentsvc.node
    def prepare(node_input: dict[str, Any], ctx: agentsvc.NodeContext) -> dict[str, Any]:
        calls["prepare"] += 1
        ctx.state["prepared"] = True
        return {"order": "".join(p.get("text", "") for p in node_input["parts"])}

    @agentsvc.node
    async def flaky(node_input: Any, ctx: agentsvc.NodeContext) -> Any:
        calls["flaky"] += 1
        if attempts is not None:
            attempts.append(ctx.attempt)
        if calls["flaky"] == 1:
            raise ValueError("the order service is warming up")
        return node_input

    @agentsvc.node
    def approval_gate(node_input: Any) -> agentsvc.RequestInput:
        calls["approval_gate"] += 1
        return agentsvc.RequestInput(message="Approve the order?", payload=node_input,
                                     response_schema=APPROVAL_SCHEMA)

    @agentsvc.node
    def finish(node_input: dict[str, Any], ctx: agentsvc.NodeContext) -> str:
        calls["finish"] += 1
        status = "approved" if node_input.get("approved") else "rejected"
        ctx.state["status"] = status
        return status

    return [prepare, flaky, approval_gate, finish]


async def test_approval_workflow_pauses_and_resumes() -> None:
    calls: Counter[str] = Counter()
    attempts: list[int] = []
    nodes = approval_nodes(calls, attempts)
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("approvals", uid)

        inv = client.connect("approvals", uid, session.id, "Order #42", nodes=nodes)
        events = await bounded(inv.collect(), 40)
        assert inv.completed
        paused = [e for e in events if agentsvc.get_request_input_interrupt_ids(e)]
        assert len(paused) == 1, [agentsvc.to_dict(e) for e in events]
        assert agentsvc.has_request_input_function_call(paused[0])
        [interrupt_id] = agentsvc.get_request_input_interrupt_ids(paused[0])
        [request] = [c for c in agentsvc.function_calls(paused[0]) if c.name == agentsvc.REQUEST_INPUT_FUNCTION_CALL_NAME]
        args = agentsvc.args_of(request)
        assert args["message"] == "Approve the order?"
        assert args["payload"] == {"order": "Order #42"}
        assert calls == Counter(prepare=1, flaky=2, approval_gate=1)
        assert attempts == [1, 2]

        resume = agentsvc.request_input_message(interrupt_id, {"approved": True})
        inv = client.connect("approvals", uid, session.id, resume, nodes=nodes)
        events = await bounded(inv.collect(), 40)
        assert inv.completed
        assert not any(agentsvc.get_request_input_interrupt_ids(e) for e in events)
        assert calls == Counter(prepare=1, flaky=2, approval_gate=1, finish=1)
        outputs = [agentsvc.to_dict(e).get("output") for e in events if e.HasField("output")]
        assert "approved" in outputs

        stored = await client.get_session("approvals", uid, session.id)
        assert stored.state["status"] == "approved"
        assert stored.state["prepared"] is True


async def test_a_run_missing_a_node_is_refused_and_stores_nothing() -> None:
    calls: Counter[str] = Counter()
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("approvals", uid)
        inv = client.connect("approvals", uid, session.id, "Order #7", nodes=approval_nodes(calls)[:1])
        with pytest.raises(agentsvc.FailedPreconditionError) as err:
            await bounded(inv.collect(), 20)
        assert err.value.reason == "NODE_NOT_DECLARED"
        assert not calls
        stored = await client.get_session("approvals", uid, session.id)
        assert len(stored.events) == 0


def dynamic_nodes(seen: dict[str, Any]) -> list[agentsvc.Node]:
    """The dynamic app's nodes: plan runs double twice (a function only
    run_node calls) and the graph's shout node once, and reads its session."""

    @agentsvc.node(dynamic=True)
    def double(node_input: int) -> int:
        return node_input * 2

    @agentsvc.node(dynamic=True)
    def broken() -> None:
        raise KeyError("nope")

    @agentsvc.node(session_events=True)
    async def plan(node_input: Any, ctx: agentsvc.NodeContext) -> dict[str, Any]:
        a = await ctx.run_node(double, node_input=3)
        b = await ctx.run_node(double, node_input=a)
        loud = await ctx.run_node("shout", node_input="hi", run_id="once")
        try:
            await ctx.run_node(broken)
        except agentsvc.DynamicNodeFailError as exc:
            seen["failure"] = (str(exc), exc.error.type if exc.error else None, exc.error_node_path)
        seen["session"] = (ctx.session.id, ctx.session.user_id, len(ctx.session.events))
        ctx.state["plan"] = {"a": a, "b": b, "loud": loud}
        return {"a": a, "b": b}

    @agentsvc.node
    def summary(node_input: dict[str, Any], ctx: agentsvc.NodeContext) -> str:
        return f"{node_input['b']} {ctx.session.state['plan']['loud']}"

    @agentsvc.node
    def shout(node_input: str) -> str:
        return node_input.upper() + "!"

    return [plan, double, broken, summary, shout]


async def test_dynamic_nodes_run_inside_a_node() -> None:
    seen: dict[str, Any] = {}
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("dynamic", uid)
        inv = client.connect("dynamic", uid, session.id, "go", nodes=dynamic_nodes(seen))
        events = await bounded(inv.collect(), 40)
        assert inv.completed
        outputs = [(e.node_info.path, agentsvc.to_dict(e).get("output")) for e in events if e.HasField("output")]
        assert outputs[:4] == [
            ("dynamic@1/plan@1/double@1", 6),
            ("dynamic@1/plan@1/double@2", 12),
            ("dynamic@1/plan@1/shout@once", "HI!"),
            ("dynamic@1/plan@1", {"a": 6, "b": 12}),
        ], outputs
        failed = [e for e in events if e.error_code]
        assert [(e.node_info.path, e.error_code, e.error_message) for e in failed] == [
            ("dynamic@1/plan@1/broken@1", "KeyError", "'nope'")]
        assert seen["failure"] == ("Dynamic node broken failed", "KeyError", "dynamic@1/plan@1/broken@1")
        assert seen["session"] == (session.id, uid, 1)
        assert outputs[4:] == [("dynamic@1/summary@1", "12 HI!"), ("dynamic@1/shout@1", "12 HI!!")]
        stored = await client.get_session("dynamic", uid, session.id)
        assert stored.state["plan"] == {"a": 6, "b": 12, "loud": "HI!"}


def pausing_nodes(runs: Counter[str], seen: list[Any]) -> list[agentsvc.Node]:
    """The dynamic app's nodes with a plan that runs double, then ask, a
    dynamic node that asks the user; summary and shout pass the answer on."""

    @agentsvc.node(dynamic=True)
    def double(node_input: int) -> int:
        runs["double"] += 1
        return node_input * 2

    @agentsvc.node(dynamic=True)
    def ask(node_input: str) -> agentsvc.RequestInput:
        runs["ask"] += 1
        return agentsvc.RequestInput(message=node_input, interrupt_id="go-on")

    @agentsvc.node
    async def plan(node_input: Any, ctx: agentsvc.NodeContext) -> dict[str, Any]:
        runs["plan"] += 1
        a = await ctx.run_node(double, node_input=3)
        try:
            b = await ctx.run_node(ask, node_input="Go on?")
        except Exception as exc:  # the pause is no Exception: never here
            seen.append(exc)
            raise
        seen.append((ctx.resume_inputs, a, b))
        return {"a": a, "b": b}

    @agentsvc.node
    def summary(node_input: dict[str, Any]) -> str:
        return f"{node_input['a']} {node_input['b']}"

    @agentsvc.node
    def shout(node_input: str) -> str:
        return node_input.upper()

    return [plan, double, ask, summary, shout]


async def test_a_dynamic_node_that_asks_pauses_its_caller_and_replays_on_resume() -> None:
    runs: Counter[str] = Counter()
    seen: list[Any] = []
    nodes = pausing_nodes(runs, seen)
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("dynamic", uid)
        inv = client.connect("dynamic", uid, session.id, "go", nodes=nodes)
        events = await bounded(inv.collect(), 40)
        assert inv.completed
        assert not any(e.error_code for e in events), [agentsvc.to_dict(e) for e in events]
        outputs = [(e.node_info.path, agentsvc.to_dict(e).get("output")) for e in events if e.HasField("output")]
        assert outputs == [("dynamic@1/plan@1/double@1", 6)]
        [asked] = [e for e in events if agentsvc.get_request_input_interrupt_ids(e)]
        assert asked.node_info.path == "dynamic@1/plan@1/ask@1"
        assert agentsvc.get_request_input_interrupt_ids(asked) == ["go-on"]
        assert runs == Counter(plan=1, double=1, ask=1)
        assert seen == []

        resume = agentsvc.request_input_message("go-on", {"result": "yes"})
        inv = client.connect("dynamic", uid, session.id, resume, nodes=nodes)
        events = await bounded(inv.collect(), 40)
        assert inv.completed
        outputs = [(e.node_info.path, agentsvc.to_dict(e).get("output")) for e in events if e.HasField("output")]
        assert outputs == [
            ("dynamic@1/plan@1", {"a": 6, "b": "yes"}),
            ("dynamic@1/summary@1", "6 yes"),
            ("dynamic@1/shout@1", "6 YES"),
        ], outputs
        assert runs == Counter(plan=2, double=1, ask=1)
        assert seen == [({"go-on": "yes"}, 6, "yes")]
