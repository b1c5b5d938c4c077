"""Unit tests of the subprocess code executor and of code execution calls on
Connect."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import agentsvc
from agentsvc import CodeCall, CodeFile, SubprocessCodeExecutor
from agentsvc.v1 import runner_service_pb2
from tests.fakeserver import FakeServer


def call(code: str, *files: CodeFile) -> CodeCall:
    return CodeCall(call_id="c1", invocation_id="e-1", agent_name="coder", language="python", code=code,
                    input_files=files)


def test_stdout_and_output_files() -> None:
    ex = SubprocessCodeExecutor(timeout=20)
    result = ex.execute(call(
        "data = open('in.csv').read()\nprint(data.upper(), end='')\nopen('out.txt', 'w').write('done')",
        CodeFile("in.csv", b"a,b\n", "text/csv"),
    ))
    assert result.stderr == ""
    assert result.stdout == "A,B\n"
    assert [(f.name, f.content, f.mime_type) for f in result.output_files] == [("out.txt", b"done", "text/plain")]


def test_error_goes_to_stderr() -> None:
    result = SubprocessCodeExecutor(timeout=20).execute(call("raise ValueError('bad')"))
    assert "ValueError: bad" in result.stderr


def test_timeout_and_output_cap() -> None:
    result = SubprocessCodeExecutor(timeout=0.5).execute(call("import time\ntime.sleep(5)"))
    assert result.stderr == "Code execution timed out after 0.5 seconds."
    result = SubprocessCodeExecutor(timeout=20, max_output_bytes=10).execute(call("print('x' * 100)"))
    assert result.stdout == "x" * 10


def test_result_proto() -> None:
    msg = agentsvc.CodeResult(stdout="1", output_files=[CodeFile("a.png", b"P", "image/png")]).to_proto("c9")
    assert msg.call_id == "c9" and msg.output_files[0].name == "a.png" and msg.output_files[0].content == b"P"


class _Failing(agentsvc.CodeExecutor):
    def execute(self, call: CodeCall) -> agentsvc.CodeResult:
        if call.code == "boom":
            raise RuntimeError("sandbox down")
        return agentsvc.CodeResult(stdout=f"{call.language}:{call.execution_id}:{call.input_files[0].name}")


async def test_connect_answers_code_execution(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    starts: list[runner_service_pb2.StartRun] = []
    results: list[runner_service_pb2.CodeResult] = []

    async def connect(requests: AsyncIterator[runner_service_pb2.ConnectRequest],
                      context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        starts.append((await anext(requests)).start)
        for i, code in enumerate(("print(1)", "boom"), 1):
            call = runner_service_pb2.CodeExecutionCall(
                call_id=f"code-{i}", invocation_id="e-1", agent_name="coder", language="python", code=code,
                execution_id="s-1", input_files=[runner_service_pb2.File(name="in.csv", mime_type="text/csv", content=b"a")])
            yield runner_service_pb2.ConnectResponse(code_execution=call)
            results.append((await anext(requests)).code_result)
        yield runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))

    fake.connect = connect
    inv = fake_client.connect("coder", "u", "s", "go", code_executor=_Failing())
    assert await inv.collect() == []
    assert starts[0].code_executor
    assert [(r.call_id, r.stdout, r.stderr) for r in results] == [
        ("code-1", "python:s-1:in.csv", ""),
        ("code-2", "", "RuntimeError: sandbox down"),
    ]


async def test_connect_without_executor_does_not_declare_one(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    starts: list[runner_service_pb2.StartRun] = []

    async def connect(requests: AsyncIterator[runner_service_pb2.ConnectRequest],
                      context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        starts.append((await anext(requests)).start)
        yield runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))

    fake.connect = connect
    await fake_client.connect("coder", "u", "s", "go").collect()
    assert not starts[0].code_executor
