"""Unit tests of the subprocess code executor."""

from __future__ import annotations

import agentsvc
from agentsvc import CodeCall, CodeFile, SubprocessCodeExecutor


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
