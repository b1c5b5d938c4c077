"""Live tests of what a workflow's user sees as ADK 2.13 shows it: the
``fanout`` app's concurrent function nodes emit their events in ADK's
order whatever order this process answers in, and a wrong answer to the
``approvals`` app's question fails with pydantic's text, after which a
corrected answer is taken.

They need the live stack of test_live.py (scripts/with-stack.sh).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

import agentsvc
from tests.test_live import ADDR, FAKE_URL, bounded, user_id
from tests.test_live_workflow import approval_nodes

if not (ADDR and FAKE_URL):
    pytest.skip("no live stack (AGENTSVC_ADDR, FAKEGEMINI_URL)", allow_module_level=True)

pytestmark = pytest.mark.live


def fanout_nodes(answered: list[str]) -> list[agentsvc.Node]:
    """The fanout app's nodes; left, the first branch, answers last."""

    @agentsvc.node
    def split(node_input: dict[str, Any]) -> str:
        return "".join(p.get("text", "") for p in node_input["parts"])

    @agentsvc.node
    async def left(node_input: str, ctx: agentsvc.NodeContext) -> str:
        await asyncio.sleep(0.5)  # answers after middle and right
        answered.append("left")
        ctx.state["left"] = True
        return "L:" + node_input

    @agentsvc.node
    def left_more(node_input: str) -> str:
        return node_input + "+"

    @agentsvc.node
    def middle(node_input: str) -> str:
        answered.append("middle")
        return "M:" + node_input

    @agentsvc.node
    def right(node_input: str, ctx: agentsvc.NodeContext) -> None:
        answered.append("right")
        ctx.state["right"] = True

    @agentsvc.node
    def publish(node_input: dict[str, Any]) -> dict[str, Any]:
        return node_input

    return [split, left, left_more, middle, right, publish]


async def test_concurrent_branches_emit_in_adk_order() -> None:
    answered: list[str] = []
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("fanout", uid)
        inv = client.connect("fanout", uid, session.id, "order", nodes=fanout_nodes(answered))
        events = await bounded(inv.collect(), 40)
        assert inv.completed
        assert answered[-1] == "left"  # the first branch answered last
        # ADK 2.13 (the same graph, functions that do not wait): the fan-out
        # in declaration order, then left_more, then the join.
        assert [e.node_info.path for e in events] == [
            "fanout@1/split@1", "fanout@1/left@1", "fanout@1/middle@1", "fanout@1/right@1",
            "fanout@1/left_more@1", "fanout@1/both@1", "fanout@1/publish@1",
        ]
        assert [e.branch for e in events[1:5]] == ["left@1", "middle@1", "right@1", "left@1"]
        assert agentsvc.to_dict(events[-1])["output"] == {"left_more": "L:order+", "middle": "M:order", "right": None}


APPROVED_WRONG = (
    "Validation failed for interrupt {id}: Validation failed for object schema: 1 validation error for DynamicModel\n"
    "approved\n"
    "  Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='maybe', "
    "input_type=str]\n"
    "    For further information visit https://errors.pydantic.dev/2.14/v/bool_parsing"
)


async def test_a_wrong_answer_fails_with_pydantics_text_and_a_corrected_one_is_taken() -> None:
    calls: Counter[str] = Counter()
    nodes = approval_nodes(calls)
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("approvals", uid)
        events = await bounded(client.connect("approvals", uid, session.id, "Order #9", nodes=nodes).collect(), 40)
        [interrupt_id] = [i for e in events for i in agentsvc.get_request_input_interrupt_ids(e)]

        wrong = agentsvc.request_input_message(interrupt_id, {"approved": "maybe"})
        with pytest.raises(agentsvc.InvalidArgumentError) as err:
            await bounded(client.connect("approvals", uid, session.id, wrong, nodes=nodes).collect(), 40)
        assert err.value.reason == "WORKFLOW_DATA_ERROR"
        assert APPROVED_WRONG.format(id=interrupt_id) in str(err.value)
        assert "finish" not in calls

        # ADK 2.13 keeps failing on the stored wrong answer; agentsvc takes
        # a corrected one.
        right = agentsvc.request_input_message(interrupt_id, {"approved": "yes"})
        inv = client.connect("approvals", uid, session.id, right, nodes=nodes)
        await bounded(inv.collect(), 40)
        assert inv.completed
        assert calls["finish"] == 1
        stored = await client.get_session("approvals", uid, session.id)
        assert stored.state["status"] == "approved"
