"""Live tests of client code execution: the ``coder`` app's
ClientCodeExecutor runs the model's code in this process.

They need the live stack of test_live.py (scripts/with-stack.sh).
"""

from __future__ import annotations

import pytest

import agentsvc
from tests.test_live import ADDR, FAKE_URL, FakeGemini, bounded, final_texts, text, user_id

if not (ADDR and FAKE_URL):
    pytest.skip("no live stack (AGENTSVC_ADDR, FAKEGEMINI_URL)", allow_module_level=True)

pytestmark = pytest.mark.live


async def test_code_round_trip_with_a_retry() -> None:
    model = FakeGemini(FAKE_URL)
    await model.reset()
    await model.script(
        text("Let me compute.\n```python\nprint(6 * seven)\n```"),
        text("Fixed:\n```python\nprint(6 * 7)\n```"),
        text("The answer is 42."),
    )
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("coder", uid)
        inv = client.connect("coder", uid, session.id, "What is 6 times 7?",
                             code_executor=agentsvc.SubprocessCodeExecutor(timeout=20))
        events = await bounded(inv.collect(), 40)

        assert inv.completed
        parts = [p for e in events for p in e.content.parts]
        codes = [p.executable_code.code for p in parts if p.HasField("executable_code")]
        results = [p.code_execution_result for p in parts if p.HasField("code_execution_result")]
        assert codes == ["print(6 * seven)", "print(6 * 7)"]
        assert results[0].outcome == "OUTCOME_FAILED" and "NameError" in results[0].output
        assert results[1].outcome == "OUTCOME_OK" and results[1].output == "Code execution result:\n42\n\n"
        # As in ADK, an answer cut after its code block counts as final; its
        # result does not.
        assert final_texts(events) == ["Let me compute.\n", "Fixed:\n", "The answer is 42."]

        # The model saw its failed code and the error as ADK sends them,
        # then the working code and its output.
        requests = await model.requests()
        assert len(requests) == 3
        second = requests[1]["body"]["contents"]
        assert second[1]["parts"] == [{"text": "Let me compute.\n"}, {"text": "```tool_code\nprint(6 * seven)\n```"}]
        error = second[2]
        assert error["role"] == "user" and error["parts"][0]["text"].startswith("```tool_output\nTraceback")
        assert "NameError: name 'seven' is not defined" in error["parts"][0]["text"]
        third = requests[2]["body"]["contents"]
        assert third[-1] == {"role": "user", "parts": [{"text": "```tool_output\nCode execution result:\n42\n\n\n```"}]}

        stored = await client.get_session("coder", uid, session.id)
        assert len(stored.events) == 6
        assert stored.state["_code_execution_context"] == {}


async def test_code_executor_must_be_declared() -> None:
    uid = user_id()
    async with agentsvc.Client(ADDR, timeout=20) as client:
        session = await client.create_session("coder", uid)
        with pytest.raises(agentsvc.FailedPreconditionError):
            await bounded(client.connect("coder", uid, session.id, "hi").collect())
        with pytest.raises(agentsvc.FailedPreconditionError):
            await bounded(client.run("coder", uid, session.id, "hi").collect())
        stored = await client.get_session("coder", uid, session.id)
        assert len(stored.events) == 0
