"""Unit tests of artifacts: the Client's ArtifactService methods against an
in-memory store in the fake server, the conversions of what a save takes,
and the files tools and callbacks save with their results."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

import agentsvc
from agentsvc.artifacts import artifact_part, check_filename
from agentsvc.tools import ToolContext
from agentsvc.v1 import artifact_service_pb2 as pb
from agentsvc.v1 import content_pb2, runner_service_pb2
from tests.fakeserver import FakeServer, abort_with_info

Requests = AsyncIterator[runner_service_pb2.ConnectRequest]


class MemoryArtifacts:
    """An ArtifactService that keeps versions in a dict, answering as the
    service does: user: names per user, ARTIFACT_NOT_FOUND for a missing
    artifact or version, APP_NOT_FOUND for an app other than "docs"."""

    def __init__(self) -> None:
        self.versions: dict[tuple[str, ...], list[tuple[content_pb2.Part, pb.ArtifactVersion]]] = {}
        self.requests: list[Any] = []

    @staticmethod
    def _key(req: Any) -> tuple[str, ...]:
        if req.filename.startswith("user:"):
            return (req.app_name, req.user_id, req.filename)
        return (req.app_name, req.user_id, req.session_id, req.filename)

    async def _check(self, req: Any, context: Any) -> None:
        self.requests.append(req)
        if req.app_name != "docs":
            await abort_with_info(context, grpc.StatusCode.NOT_FOUND, "App not found: " + req.app_name, "APP_NOT_FOUND")
        if ".." in getattr(req, "filename", ""):
            await abort_with_info(
                context, grpc.StatusCode.INVALID_ARGUMENT,
                f"Artifact filename {req.filename!r} must not contain parent traversal.", "ARTIFACT_INVALID",
            )

    async def _missing(self, context: Any) -> None:
        await abort_with_info(context, grpc.StatusCode.NOT_FOUND, "Artifact not found", "ARTIFACT_NOT_FOUND")

    async def ListArtifactKeys(self, req: pb.ListArtifactKeysRequest, context: Any) -> pb.ListArtifactKeysResponse:  # noqa: N802
        await self._check(req, context)
        names = [
            key[-1] for key in self.versions
            if key[:2] == (req.app_name, req.user_id) and (len(key) == 3 or key[2] == req.session_id)
        ]
        return pb.ListArtifactKeysResponse(filenames=sorted(names))

    async def LoadArtifact(self, req: pb.LoadArtifactRequest, context: Any) -> pb.LoadArtifactResponse:  # noqa: N802
        await self._check(req, context)
        saved = self.versions.get(self._key(req), [])
        index = req.version if req.HasField("version") else len(saved) - 1
        if not 0 <= index < len(saved):
            await self._missing(context)
        return pb.LoadArtifactResponse(artifact=saved[index][0])

    async def ListArtifactVersions(self, req: pb.ListArtifactVersionsRequest, context: Any) -> pb.ListArtifactVersionsResponse:  # noqa: N802
        await self._check(req, context)
        return pb.ListArtifactVersionsResponse(versions=range(len(self.versions.get(self._key(req), []))))

    async def ListArtifactVersionsMetadata(  # noqa: N802
        self, req: pb.ListArtifactVersionsMetadataRequest, context: Any
    ) -> pb.ListArtifactVersionsMetadataResponse:
        await self._check(req, context)
        return pb.ListArtifactVersionsMetadataResponse(versions=[v for _, v in self.versions.get(self._key(req), [])])

    async def GetArtifactVersion(  # noqa: N802
        self, req: pb.GetArtifactVersionRequest, context: Any
    ) -> pb.GetArtifactVersionResponse:
        await self._check(req, context)
        saved = self.versions.get(self._key(req), [])
        if not 0 <= req.version < len(saved):
            await self._missing(context)
        return pb.GetArtifactVersionResponse(artifact_version=saved[req.version][1])

    async def SaveArtifact(self, req: pb.SaveArtifactRequest, context: Any) -> pb.SaveArtifactResponse:  # noqa: N802
        await self._check(req, context)
        saved = self.versions.setdefault(self._key(req), [])
        part = req.artifact
        mime = part.inline_data.mime_type if part.HasField("inline_data") else "text/plain"
        version = pb.ArtifactVersion(
            version=len(saved), canonical_uri=f"memory://{req.filename}/versions/{len(saved)}",
            custom_metadata=req.custom_metadata, create_time=1700000000.5, mime_type=mime,
        )
        saved.append((part, version))
        return pb.SaveArtifactResponse(artifact_version=version)

    async def DeleteArtifact(self, req: pb.DeleteArtifactRequest, context: Any) -> pb.DeleteArtifactResponse:  # noqa: N802
        await self._check(req, context)
        self.versions.pop(self._key(req), None)
        return pb.DeleteArtifactResponse()


@pytest.fixture
def store(fake: FakeServer) -> MemoryArtifacts:
    fake.artifacts = MemoryArtifacts()
    return fake.artifacts  # type: ignore[no-any-return]


# The Client's methods.


async def test_save_list_load_versions_delete(store: MemoryArtifacts, fake_client: agentsvc.Client) -> None:
    c = fake_client
    v0 = await c.save_artifact("docs", "alice", "s1", "report.txt", "first draft")
    assert isinstance(v0, agentsvc.ArtifactVersion)
    assert (v0.version, v0.mime_type, v0.create_time) == (0, "text/plain", 1700000000.5)
    v1 = await c.save_artifact("docs", "alice", "s1", "report.txt", b"%PDF-", mime_type="application/pdf",
                               custom_metadata={"pages": 1, "tags": ["a"]})
    assert v1.version == 1 and v1.mime_type == "application/pdf"
    assert json_format.MessageToDict(v1.custom_metadata) == {"pages": 1, "tags": ["a"]}
    sent = store.requests[1]
    assert (sent.app_name, sent.user_id, sent.session_id, sent.filename) == ("docs", "alice", "s1", "report.txt")
    assert sent.artifact.inline_data.data == b"%PDF-" and not sent.artifact.text
    assert not store.requests[0].HasField("custom_metadata")

    assert await c.list_artifacts("docs", "alice", "s1") == ["report.txt"]
    latest = await c.load_artifact("docs", "alice", "s1", "report.txt")
    assert latest is not None and latest.inline_data.mime_type == "application/pdf"
    assert not store.requests[-1].HasField("version"), "no version asks for the latest"
    first = await c.load_artifact("docs", "alice", "s1", "report.txt", version=0)
    assert first == agentsvc.Part(text="first draft")
    assert store.requests[-1].HasField("version") and store.requests[-1].version == 0

    assert await c.list_artifact_versions("docs", "alice", "s1", "report.txt") == [0, 1]
    metadata = await c.list_artifact_versions_metadata("docs", "alice", "s1", "report.txt")
    assert [m.version for m in metadata] == [0, 1]
    assert [m.mime_type for m in metadata] == ["text/plain", "application/pdf"]
    got = await c.get_artifact_version("docs", "alice", "s1", "report.txt", 1)
    assert got == v1

    await c.delete_artifact("docs", "alice", "s1", "report.txt")
    assert await c.list_artifacts("docs", "alice", "s1") == []
    assert await c.list_artifact_versions("docs", "alice", "s1", "report.txt") == []
    assert await c.list_artifact_versions_metadata("docs", "alice", "s1", "report.txt") == []
    await c.delete_artifact("docs", "alice", "s1", "report.txt")  # missing: not an error


async def test_missing_artifact_or_version_is_none(store: MemoryArtifacts, fake_client: agentsvc.Client) -> None:
    c = fake_client
    assert await c.load_artifact("docs", "alice", "s1", "nothing.txt") is None
    assert await c.get_artifact_version("docs", "alice", "s1", "nothing.txt", 0) is None
    await c.save_artifact("docs", "alice", "s1", "a.txt", "x")
    assert await c.load_artifact("docs", "alice", "s1", "a.txt", version=5) is None
    assert await c.get_artifact_version("docs", "alice", "s1", "a.txt", 5) is None


async def test_other_errors_raise(store: MemoryArtifacts, fake_client: agentsvc.Client) -> None:
    c = fake_client
    # A missing app is NOT_FOUND too, but not a missing artifact.
    with pytest.raises(agentsvc.NotFoundError) as caught:
        await c.load_artifact("nope", "alice", "s1", "a.txt")
    assert caught.value.reason == "APP_NOT_FOUND"
    with pytest.raises(agentsvc.NotFoundError):
        await c.get_artifact_version("nope", "alice", "s1", "a.txt", 0)
    with pytest.raises(agentsvc.NotFoundError):
        await c.list_artifacts("nope", "alice", "s1")
    with pytest.raises(agentsvc.InvalidArgumentError) as invalid:
        await c.save_artifact("docs", "alice", "s1", "../x", "text")
    assert invalid.value.reason == "ARTIFACT_INVALID" and "parent traversal" in invalid.value.message


async def test_user_artifacts_are_seen_from_every_session(store: MemoryArtifacts, fake_client: agentsvc.Client) -> None:
    c = fake_client
    await c.save_artifact("docs", "alice", "s1", "user:profile.json", b"{}", mime_type="application/json")
    await c.save_artifact("docs", "alice", "s1", "notes.txt", "only s1")
    assert await c.list_artifacts("docs", "alice", "s1") == ["notes.txt", "user:profile.json"]
    assert await c.list_artifacts("docs", "alice", "s2") == ["user:profile.json"]
    part = await c.load_artifact("docs", "alice", "s2", "user:profile.json")
    assert part is not None and part.inline_data.data == b"{}"


async def test_save_refuses_data_it_cannot_send(store: MemoryArtifacts, fake_client: agentsvc.Client) -> None:
    c = fake_client
    with pytest.raises(ValueError, match="mime_type"):
        await c.save_artifact("docs", "alice", "s1", "a.bin", b"\x00")
    with pytest.raises(TypeError, match="None"):
        await c.save_artifact("docs", "alice", "s1", "a.bin", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        await c.save_artifact("docs", "alice", "s1", "a.txt", "")
    assert store.requests == [], "nothing was sent"


# What a save takes.


def test_artifact_part_conversions() -> None:
    pdf = artifact_part(b"%PDF-", "application/pdf")
    assert pdf == content_pb2.Part(inline_data=content_pb2.Blob(mime_type="application/pdf", data=b"%PDF-"))
    assert artifact_part(bytearray(b"ab"), "image/png").inline_data.data == b"ab"
    assert artifact_part(memoryview(b"cd"), "image/png").inline_data.data == b"cd"
    empty = artifact_part(b"", "application/octet-stream")
    assert empty.HasField("inline_data") and empty.inline_data.data == b""
    assert artifact_part("hello") == content_pb2.Part(text="hello")
    given = content_pb2.Part(inline_data=content_pb2.Blob(mime_type="image/png", data=b"x"))
    copied = artifact_part(given)
    assert copied == given and copied is not given
    given.inline_data.data = b"changed"
    assert copied.inline_data.data == b"x", "a later change to the Part is not saved"


@pytest.mark.parametrize(
    ("data", "mime_type", "error", "match"),
    [
        (None, None, TypeError, "not None"),
        (42, None, TypeError, "not int"),
        (b"x", None, ValueError, "mime_type"),
        (b"x", "", ValueError, "mime_type"),
        (b"x", 3, TypeError, "mime_type"),
        ("", None, ValueError, "empty"),
        ("text", "text/csv", ValueError, "encode"),
        (content_pb2.Part(text="x"), "text/plain", ValueError, "bytes only"),
        (content_pb2.Part(), None, ValueError, "inline_data or a non-empty text"),
        (content_pb2.Part(function_call=content_pb2.FunctionCall(name="f")), None, ValueError, "inline_data"),
    ],
)
def test_artifact_part_refusals(data: Any, mime_type: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        artifact_part(data, mime_type)


@pytest.mark.parametrize(
    "name", ["a", "report.txt", "a/b", "user:a/b", " padded ", ".", "...", "x..y", "résumé.pdf", "ab:c", "user:x"]
)
def test_accepted_filenames(name: str) -> None:
    check_filename(name)


@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("user:", "empty"),
        ("user: ", "empty"),
        ("a\x00b", "null"),
        ("../secret", "traversal"),
        ("a/../../b", "traversal"),
        ("a\\..\\b", "traversal"),
        ("user:../x", "traversal"),
        ("/etc/passwd", "rooted"),
        ("\\share", "rooted"),
        ("C:x", "drive"),
        ("user: /x", "rooted"),
        ("bad\udc80", "UTF-8"),
    ],
)
def test_refused_filenames(name: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        check_filename(name)


def test_filename_must_be_text() -> None:
    with pytest.raises(TypeError):
        check_filename(None)  # type: ignore[arg-type]


# Tools and callbacks.


def _context() -> ToolContext:
    return ToolContext(call_id="adk-1", invocation_id="e-1", agent_name="a", function_name="f", state={})


async def test_tool_context_collects_files() -> None:
    @agentsvc.tool
    def write(tool_context: ToolContext) -> str:
        tool_context.save_artifact("report.txt", "draft")
        tool_context.save_artifact("report.txt", "final")
        tool_context.save_artifact("chart.png", b"\x89PNG", mime_type="image/png")
        tool_context.save_artifact("user:raw", content_pb2.Part(text="kept"))
        return "saved"

    ctx = _context()
    assert await write.run({}, ctx) == "saved"
    assert dict(ctx.artifacts) == {
        "report.txt": content_pb2.Part(text="final"),
        "chart.png": content_pb2.Part(inline_data=content_pb2.Blob(mime_type="image/png", data=b"\x89PNG")),
        "user:raw": content_pb2.Part(text="kept"),
    }
    with pytest.raises(TypeError):
        ctx.artifacts["x"] = content_pb2.Part(text="y")  # type: ignore[index]
    assert "artifacts" not in repr(ctx)


def test_tool_context_refuses_bad_saves() -> None:
    ctx = _context()
    with pytest.raises(ValueError, match="empty"):
        ctx.save_artifact("", "x")
    with pytest.raises(TypeError, match="None"):
        ctx.save_artifact("a.txt", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mime_type"):
        ctx.save_artifact("a.bin", b"x")
    with pytest.raises(ValueError, match="traversal"):
        ctx.save_artifact("../a.txt", "x")
    assert not ctx.artifacts


def _tool_call(call_id: str, name: str) -> runner_service_pb2.ConnectResponse:
    fc = content_pb2.FunctionCall(id=call_id, name=name)
    tc = runner_service_pb2.ToolCall(call_id=call_id, invocation_id="e-1", agent_name="weather_agent", function_call=fc)
    return runner_service_pb2.ConnectResponse(tool_call=tc)


async def test_tool_results_carry_saved_files(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    results: dict[str, runner_service_pb2.ToolResult] = {}

    async def connect(requests: Requests, context: Any) -> AsyncIterator[runner_service_pb2.ConnectResponse]:
        await anext(requests)
        for i, name in enumerate(("saves", "saves_then_fails", "bad_save", "plain"), 1):
            yield _tool_call(f"adk-{i}", name)
        for _ in range(4):
            req = await anext(requests)
            results[req.tool_result.call_id] = req.tool_result
        yield runner_service_pb2.ConnectResponse(done=runner_service_pb2.RunDone(invocation_id="e-1"))

    fake.connect = connect

    async def saves(tool_context: ToolContext) -> dict[str, Any]:
        tool_context.save_artifact("report.txt", "It is sunny.")
        tool_context.save_artifact("user:data.csv", b"city,sky\nParis,sun\n", mime_type="text/csv")
        return {"saved": 2}

    def saves_then_fails(tool_context: ToolContext) -> None:
        tool_context.save_artifact("partial.txt", "half")
        raise RuntimeError("disk full")

    def bad_save(tool_context: ToolContext) -> None:
        tool_context.save_artifact("a.bin", b"no mime type")

    def plain() -> str:
        return "nothing saved"

    inv = fake_client.connect("weather", "alice", "s1", "go", tools=[saves, saves_then_fails, bad_save, plain])
    assert await asyncio.wait_for(inv.collect(), 10) == []

    ok = results["adk-1"]
    assert json_format.MessageToDict(ok.response) == {"saved": 2}
    assert dict(ok.artifacts) == {
        "report.txt": content_pb2.Part(text="It is sunny."),
        "user:data.csv": content_pb2.Part(
            inline_data=content_pb2.Blob(mime_type="text/csv", data=b"city,sky\nParis,sun\n")
        ),
    }
    failed = results["adk-2"]
    assert failed.error == "RuntimeError: disk full"
    assert dict(failed.artifacts) == {"partial.txt": content_pb2.Part(text="half")}
    refused = results["adk-3"]
    assert refused.error.startswith("ValueError: bytes need a mime_type") and not refused.artifacts
    assert not results["adk-4"].artifacts


def _callback_call(kind: runner_service_pb2.CallbackKind) -> runner_service_pb2.CallbackCall:
    return runner_service_pb2.CallbackCall(call_id="cb-1", name="cb", kind=kind, invocation_id="e-1", agent_name="a")


async def test_callback_results_carry_saved_files() -> None:
    @agentsvc.callback
    async def archive(ctx: agentsvc.CallbackContext) -> None:
        ctx.save_artifact("transcript.txt", f"agent {ctx.agent_name}")
        ctx.save_artifact("user:log.bin", b"\x01\x02", mime_type="application/octet-stream")

    result = await archive.run(_callback_call(runner_service_pb2.CALLBACK_KIND_AFTER_AGENT), {})
    assert not result.error and result.WhichOneof("override") is None
    assert dict(result.artifacts) == {
        "transcript.txt": content_pb2.Part(text="agent a"),
        "user:log.bin": content_pb2.Part(
            inline_data=content_pb2.Blob(mime_type="application/octet-stream", data=b"\x01\x02")
        ),
    }

    @agentsvc.callback
    def guard(ctx: agentsvc.CallbackContext, llm_request: agentsvc.LlmRequest) -> str:
        ctx.save_artifact("blocked.txt", "yes")
        return "Blocked."

    result = await guard.run(_callback_call(runner_service_pb2.CALLBACK_KIND_BEFORE_MODEL), {})
    assert result.llm_response.content.parts[0].text == "Blocked."
    assert dict(result.artifacts) == {"blocked.txt": content_pb2.Part(text="yes")}


async def test_a_failing_callback_saves_nothing() -> None:
    @agentsvc.callback
    def fails(ctx: agentsvc.CallbackContext) -> None:
        ctx.save_artifact("a.txt", "x")
        raise RuntimeError("boom")

    result = await fails.run(_callback_call(runner_service_pb2.CALLBACK_KIND_BEFORE_AGENT), {})
    assert result.error == "RuntimeError: boom" and not result.artifacts

    @agentsvc.callback
    def bad(ctx: agentsvc.CallbackContext) -> None:
        ctx.save_artifact("", "x")

    result = await bad.run(_callback_call(runner_service_pb2.CALLBACK_KIND_BEFORE_AGENT), {})
    assert result.error.startswith("ValueError: an artifact's filename must not be empty")
