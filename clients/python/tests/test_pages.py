"""Unit tests of GetSession pages against the in-process fake server."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import agentsvc
from agentsvc.v1 import event_pb2, session_pb2, session_service_pb2
from tests.fakeserver import FakeServer, abort_with_info


class PagedSession:
    """Serves a session's events in pages the way the service does: the
    token is the offset of the next event, pages hold page_size events."""

    def __init__(self, n: int) -> None:
        self.events = [event_pb2.Event(id=f"ev-{i}", author="user" if i % 2 == 0 else "echo_agent") for i in range(n)]
        self.requests: list[session_service_pb2.GetSessionRequest] = []

    async def get_session(self, req: session_service_pb2.GetSessionRequest, context: Any) -> Any:
        self.requests.append(req)
        if req.page_token and not req.page_token.startswith("at-"):
            await abort_with_info(context, grpc.StatusCode.INVALID_ARGUMENT, "page_token is not valid", "INVALID_ARGUMENT")
        start = int(req.page_token.removeprefix("at-") or 0)
        end = min(start + req.page_size, len(self.events))
        session = session_pb2.Session(id=req.session_id, app_name=req.app_name, user_id=req.user_id)
        session.state.update({"tier": "gold"})
        session.events.extend(self.events[start:end])
        token = f"at-{end}" if end < len(self.events) else ""
        return session_service_pb2.GetSessionResponse(session=session, next_page_token=token)


@pytest.fixture
def paged(fake: FakeServer) -> PagedSession:
    session = PagedSession(5)
    fake.get_session = session.get_session
    return session


async def test_get_session_page(paged: PagedSession, fake_client: agentsvc.Client) -> None:
    page = await fake_client.get_session_page(
        "echo", "alice", "s1", page_size=2, num_recent_events=4, after_timestamp=1.5
    )
    assert [e.id for e in page.events] == ["ev-0", "ev-1"]
    assert page.next_page_token == "at-2" and not page.last
    assert page.session.id == "s1" and page.session.state["tier"] == "gold"
    req = paged.requests[0]
    assert (req.app_name, req.user_id, req.session_id) == ("echo", "alice", "s1")
    assert (req.page_size, req.page_token, req.num_recent_events, req.after_timestamp) == (2, "", 4, 1.5)

    last = await fake_client.get_session_page("echo", "alice", "s1", page_size=10, page_token="at-4")
    assert [e.id for e in last.events] == ["ev-4"]
    assert last.next_page_token == "" and last.last


async def test_session_events_reads_every_page_once_in_order(paged: PagedSession, fake_client: agentsvc.Client) -> None:
    events = [e async for e in fake_client.session_events("echo", "alice", "s1", page_size=2, num_recent_events=9)]
    assert [e.id for e in events] == [f"ev-{i}" for i in range(5)]
    assert [r.page_token for r in paged.requests] == ["", "at-2", "at-4"]
    assert all(r.page_size == 2 and r.num_recent_events == 9 for r in paged.requests), "same selection on every page"


async def test_session_pages(paged: PagedSession, fake_client: agentsvc.Client) -> None:
    pages = [p async for p in fake_client.session_pages("echo", "alice", "s1", page_size=1)]
    assert [[e.id for e in p.events] for p in pages] == [[f"ev-{i}"] for i in range(5)]
    assert [p.last for p in pages] == [False] * 4 + [True]


async def test_pages_are_read_as_they_are_consumed(paged: PagedSession, fake_client: agentsvc.Client) -> None:
    events = fake_client.session_events("echo", "alice", "s1", page_size=2)
    first = await anext(events)
    assert first.id == "ev-0" and len(paged.requests) == 1
    await events.aclose()
    assert len(paged.requests) == 1


async def test_default_page_size(paged: PagedSession, fake_client: agentsvc.Client) -> None:
    events = [e async for e in fake_client.session_events("echo", "alice", "s1")]
    assert len(events) == 5
    assert [r.page_size for r in paged.requests] == [agentsvc.DEFAULT_PAGE_SIZE]


async def test_empty_session_yields_no_events(fake: FakeServer, fake_client: agentsvc.Client) -> None:
    fake.get_session = PagedSession(0).get_session
    assert [e async for e in fake_client.session_events("echo", "alice", "s1", page_size=1)] == []
    pages = [p async for p in fake_client.session_pages("echo", "alice", "s1", page_size=1)]
    assert len(pages) == 1 and pages[0].last and not pages[0].events


@pytest.mark.parametrize("page_size", [0, -1])
async def test_page_size_must_be_positive(page_size: int, paged: PagedSession, fake_client: agentsvc.Client) -> None:
    with pytest.raises(ValueError, match="page_size"):
        await fake_client.get_session_page("echo", "alice", "s1", page_size=page_size)
    with pytest.raises(ValueError, match="page_size"):
        [e async for e in fake_client.session_events("echo", "alice", "s1", page_size=page_size)]
    assert paged.requests == []


async def test_a_refused_page_raises(paged: PagedSession, fake_client: agentsvc.Client) -> None:
    with pytest.raises(agentsvc.InvalidArgumentError) as caught:
        await fake_client.get_session_page("echo", "alice", "s1", page_token="forged")
    assert caught.value.reason == "INVALID_ARGUMENT"
