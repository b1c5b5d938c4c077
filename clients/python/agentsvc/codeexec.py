"""Code execution in the client, for apps whose agents declare
``code_executor: {name: ClientCodeExecutor}`` in their YAML.

The model of such an agent writes Python in a fenced code block; the service
sends each block as a ``code_execution`` message, and the
:class:`CodeExecutor` passed to :meth:`agentsvc.Client.connect` runs it and
answers with its stdout, stderr and the files it wrote. A non-empty stderr
counts as a failure: the service shows it to the model, which may try again
(at most ``error_retry_attempts`` failures in a row per invocation).

:class:`SubprocessCodeExecutor` runs each block with this Python in a fresh
subprocess, in a temporary working directory that holds the input files,
with a timeout and a cap on the output it keeps. Implement
:class:`CodeExecutor` to run code elsewhere (a container, a sandbox service,
a notebook kernel).

Running code a model wrote is running untrusted code: isolate it as your
deployment requires.
"""

from __future__ import annotations

import abc
import mimetypes
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from agentsvc.v1 import runner_service_pb2

#: The service's bounds on a result: larger results fail the invocation.
MAX_OUTPUT_BYTES = 1 << 20
MAX_OUTPUT_FILES = 32
MAX_FILE_BYTES = 8 << 20


@dataclass(frozen=True)
class CodeFile:
    """A file given to, or written by, executed code."""

    name: str
    content: bytes
    mime_type: str = "application/octet-stream"


@dataclass(frozen=True)
class CodeCall:
    """One code block to run (ADK's ``CodeExecutionInput``)."""

    call_id: str
    invocation_id: str
    agent_name: str
    #: Lower case, e.g. ``"python"`` or ``"tool_code"``.
    language: str
    code: str
    input_files: tuple[CodeFile, ...] = ()
    #: Set by a stateful executor (the session's id): calls with the same
    #: id are meant to share their interpreter state.
    execution_id: str = ""

    @classmethod
    def from_proto(cls, msg: runner_service_pb2.CodeExecutionCall) -> CodeCall:
        return cls(
            call_id=msg.call_id,
            invocation_id=msg.invocation_id,
            agent_name=msg.agent_name,
            language=msg.language,
            code=msg.code,
            input_files=tuple(CodeFile(f.name, f.content, f.mime_type) for f in msg.input_files),
            execution_id=msg.execution_id,
        )


@dataclass
class CodeResult:
    """What the code did (ADK's ``CodeExecutionResult``). A non-empty
    ``stderr`` is a failure."""

    stdout: str = ""
    stderr: str = ""
    output_files: list[CodeFile] = field(default_factory=list)

    def to_proto(self, call_id: str) -> runner_service_pb2.CodeResult:
        return runner_service_pb2.CodeResult(
            call_id=call_id,
            stdout=self.stdout,
            stderr=self.stderr,
            output_files=[
                runner_service_pb2.File(name=f.name, mime_type=f.mime_type, content=f.content) for f in self.output_files
            ],
        )


class CodeExecutor(abc.ABC):
    """Runs the code blocks of a Connect run. :meth:`execute` runs in a
    worker thread, so several invocations may call it at once."""

    @abc.abstractmethod
    def execute(self, call: CodeCall) -> CodeResult:
        """Runs ``call.code`` and returns its outcome. An exception is sent
        to the model as the code's stderr."""


def _clip(data: bytes, limit: int) -> str:
    text = data.decode("utf-8", errors="replace")
    encoded = text.encode("utf-8")
    if len(encoded) <= limit:
        return text
    return encoded[:limit].decode("utf-8", errors="ignore")


class SubprocessCodeExecutor(CodeExecutor):
    """Runs Python code with this interpreter in a subprocess.

    Each call gets a new temporary working directory holding its input
    files; the files the code writes there (other than the inputs) come back
    as output files, at most :data:`MAX_OUTPUT_FILES` of at most
    :data:`MAX_FILE_BYTES` each (larger ones are left out). The code runs for
    at most ``timeout`` seconds; stdout and stderr are each cut to
    ``max_output_bytes``.

    It is stateless: every call starts a fresh interpreter, so variables do
    not carry over between calls even when the agent's executor is
    ``stateful`` (``execution_id`` is ignored).
    """

    def __init__(
        self,
        *,
        timeout: float = 30.0,
        max_output_bytes: int = 64 * 1024,
        python: str = sys.executable,
        env: dict[str, str] | None = None,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if not 0 < max_output_bytes <= MAX_OUTPUT_BYTES:
            raise ValueError(f"max_output_bytes must be in (0, {MAX_OUTPUT_BYTES}]")
        self.timeout = timeout
        self.max_output_bytes = max_output_bytes
        self.python = python
        self.env = env

    def execute(self, call: CodeCall) -> CodeResult:
        with tempfile.TemporaryDirectory(prefix="agentsvc-code-") as tmp:
            work = Path(tmp)
            inputs = set()
            for f in call.input_files:
                name = os.path.basename(f.name)
                if not name or name in (".", ".."):
                    continue
                (work / name).write_bytes(f.content)
                inputs.add(name)
            script = work / ".agentsvc_main.py"
            script.write_text(call.code, encoding="utf-8")
            try:
                proc = subprocess.run(
                    [self.python, script.name],
                    cwd=work,
                    capture_output=True,
                    timeout=self.timeout,
                    env=self.env,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return CodeResult(stderr=f"Code execution timed out after {self.timeout:g} seconds.")
            stdout = _clip(proc.stdout, self.max_output_bytes)
            stderr = _clip(proc.stderr, self.max_output_bytes)
            if proc.returncode != 0 and not stderr:
                stderr = f"Process exited with status {proc.returncode}."
            return CodeResult(stdout=stdout, stderr=stderr, output_files=self._outputs(work, inputs | {script.name}))

    @staticmethod
    def _outputs(work: Path, skip: set[str]) -> list[CodeFile]:
        files = []
        for path in sorted(work.iterdir()):
            if path.name in skip or not path.is_file() or path.is_symlink():
                continue
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            mime, _ = mimetypes.guess_type(path.name)
            files.append(CodeFile(path.name, path.read_bytes(), mime or "application/octet-stream"))
            if len(files) == MAX_OUTPUT_FILES:
                break
        return files
