"""Live tests of the workflow fields and rules ADK 2.13 has: a nested
workflow's input, node fields (parallel_worker, require_confirmation,
wait_for_output, retry_config and timeout on agent and join nodes,
descriptions and schemas) and a task-mode agent placed directly as a node.

They need a live stack serving integration/testdata/workflows/apps
(``make test-python`` starts one and sets AGENTSVC_WORKFLOW_SEEDS).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

import pytest
import agentsvc
from agentsvc import Event, NodeContext
from tests.test_live import ADDR, FAKE_URL, FakeGemini, bounded, calls as model_calls, text, user_id
from tests.test_live_workflow_seeds import output_of

if not (ADDR and FAKE_URL and os.environ.get("AGENTSVC_WORKFLOW_SEEDS")):
    pytest.skip("no live stack serving the workflow apps (AGENTSVC_WORKFLOW_SEEDS)", allow_module_level=True)

pytestmark = pytest.mark.live


async def run(app: str, message: Any, nodes: list[Any]) -> tuple[agentsvc.Client, str, str, list[Event]]:
    uid = user_id()
    client = agentsvc.Client(ADDR, timeout=20)
    session = await client.create_session(app, uid)
    events = list(await bounded(client.connect(app, uid, session.id, message, nodes=nodes).collect(), 30))
    return client, uid, session.id, events


@agentsvc.node
def nest_prep(node_input: Any) -> dict[str, Any]:
    return {"text": "".join(p["text"] for p in node_input["parts"]), "x": 1}


@agentsvc.node
def nest_a(node_input: Any) -> dict[str, Any]:
    return {"a_got": node_input}


async def test_a_nested_workflow_starts_from_its_node_input() -> None:
    client, _, _, events = await run("nested_input", "nest me", [nest_prep, nest_a])
    await client.close()
    inner = [e for e in events if e.node_info.path == "nested_input@1/inner_wf@1/a@1"]
    assert [output_of(e) for e in inner] == [{"a_got": {"text": "nest me", "x": 1}}]


@agentsvc.node
def split_numbers(node_input: Any) -> list[int]:
    return [int(w) for w in node_input["parts"][0]["text"].split()]


running = 0
most = 0


@agentsvc.node
async def double(node_input: int) -> int:
    global running, most
    running += 1
    most = max(most, running)
    await asyncio.sleep(0.05)
    running -= 1
    return node_input * 2


@agentsvc.node
def total(node_input: list[int], ctx: NodeContext) -> list[int]:
    ctx.state["total"] = sum(node_input)
    return node_input


async def test_a_parallel_worker_runs_once_per_item() -> None:
    client, uid, sid, events = await run("workers_wf", "1 2 3", [split_numbers, double, total])
    stored = await client.get_session("workers_wf", uid, sid)
    await client.close()
    items = sorted((e.node_info.path, e.branch, output_of(e)) for e in events if e.node_info.path.count("/") == 2)
    assert items == [("workers_wf@1/double@1/double@1", "double@1", 2), ("workers_wf@1/double@1/double@2", "double@2", 4),
                     ("workers_wf@1/double@1/double@3", "double@3", 6)]
    [whole] = [e for e in events if e.node_info.path == "workers_wf@1/double@1"]
    assert output_of(whole) == [2, 4, 6]
    assert most <= 2
    assert stored.state["total"] == 12


@agentsvc.node
def remove_file(node_input: Any) -> dict[str, Any]:
    return {"removed": node_input["parts"][0]["text"]}


@pytest.mark.parametrize("confirmed", [True, False])
async def test_a_node_that_requires_confirmation_asks_first(confirmed: bool) -> None:
    client, uid, sid, events = await run("confirm_wf", "notes.txt", [remove_file])
    [asked] = [e for e in events if agentsvc.get_request_input_interrupt_ids(e)]
    [interrupt_id] = agentsvc.get_request_input_interrupt_ids(asked)
    assert interrupt_id == "wf_tool_confirmation:confirm_wf@1/remove_file@1"
    [request] = agentsvc.function_calls(asked)
    args = agentsvc.args_of(request)
    assert args["message"] == "Please approve or reject the tool call remove_file()."
    assert args["payload"]["tool_name"] == "remove_file"
    assert args["response_schema"]["title"] == "ToolConfirmation"
    answer = agentsvc.request_input_message(interrupt_id, {"confirmed": confirmed})
    events = list(await bounded(client.connect("confirm_wf", uid, sid, answer, nodes=[remove_file]).collect(), 30))
    await client.close()
    want = {"removed": "notes.txt"} if confirmed else {"error": "This tool call is rejected."}
    assert [output_of(e) for e in events if e.HasField("output")] == [want]


gate_runs: list[str] = []


@agentsvc.node
def fan(node_input: Any) -> str:
    return "go"


@agentsvc.node
def side(node_input: Any, ctx: NodeContext) -> str:
    return ctx.node_path.split("/")[-1].split("@")[0]


@agentsvc.node
def gate(node_input: Any) -> Any:
    gate_runs.append(node_input)
    return "open" if len(gate_runs) == 2 else None


@agentsvc.node
def after_gate(node_input: Any) -> str:
    return f"after {node_input}"


async def test_wait_for_output_holds_the_successors_until_an_output() -> None:
    gate_runs.clear()
    client, _, _, events = await run("gate_wf", "go", [fan, side, gate, after_gate])
    await client.close()
    assert sorted(gate_runs) == ["left", "right"]
    afters = [output_of(e) for e in events if e.node_info.path.startswith("gate_wf@1/after_gate@")]
    assert afters == ["after open"]


async def test_an_agent_node_is_retried() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await asyncio.to_thread(model._request, "POST", "/_fake/faults", {"fail": {"count": 1, "code": 400, "message": "bad"}})
    await model.script(text("A short summary."))
    client, _, _, events = await run("agent_retry_wf", "Summarise this.", [])
    await client.close()
    failed = [e for e in events if e.error_code]
    assert [(e.author, e.node_info.path, e.error_code) for e in failed] == [
        ("agent_retry_wf", "agent_retry_wf@1/summariser@1", "INVALID_ARGUMENT")]
    [joined] = [e for e in events if e.node_info.path == "agent_retry_wf@1/both@1"]
    assert output_of(joined) == {"summariser": "A short summary."}


@agentsvc.node
def after_task(node_input: Any) -> dict[str, Any]:
    return {"after_got": node_input}


async def test_a_task_agent_placed_as_a_node_runs_in_a_2x_app() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await model.script(model_calls(("finish_task", {"result": "done it"})))
    client, _, _, events = await run("task_direct", "do a task", [after_task])
    await client.close()
    outputs = [(e.author, e.node_info.path, output_of(e)) for e in events if e.HasField("output")]
    assert outputs == [("tasker", "task_direct@1/tasker@1", {"result": "done it"}),
                       ("task_direct", "task_direct@1/after_task@1", {"after_got": {"result": "done it"}})]


@agentsvc.node
def split_words(node_input: Any) -> list[str]:
    return str(node_input["parts"][0]["text"]).split()


async def test_an_agent_runs_as_a_parallel_worker() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await model.script(text("ONE"), text("TWO"))
    client, _, _, events = await run("agent_workers", "one two", [split_words])
    await client.close()
    items = [(e.author, e.node_info.path, e.branch) for e in events if e.node_info.path.count("/") == 2]
    assert items == [("upper", "agent_workers@1/upper@1/upper@1", "upper@1"),
                     ("upper", "agent_workers@1/upper@1/upper@2", "upper@2")]
    [whole] = [e for e in events if e.node_info.path == "agent_workers@1/upper@1"]
    assert output_of(whole) == ["ONE", "TWO"]
    turns = [r["body"]["contents"][-1]["parts"][0]["text"] for r in await model.requests()]
    assert turns == ["one", "two"]
