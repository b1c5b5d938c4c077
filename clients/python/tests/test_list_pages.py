"""Unit tests of ListSessions pages against the in-process fake server."""

from __future__ import annotations

from typing import Any

import grpc
import pytest

import agentsvc
from agentsvc.v1 import session_pb2, session_service_pb2
from tests.fakeserver import FakeServer, abort_with_info


class PagedList:
    """Serves a user's sessions in pages the way the service does: the
    token names the offset of the next session."""

    def __init__(self, n: int) -> None:
        self.ids = [f"s{i}" for i in range(n)]
        self.requests: list[session_service_pb2.ListSessionsRequest] = []

    async def list_sessions(self, req: session_service_pb2.ListSessionsRequest, context: Any) -> Any:
        self.requests.append(req)
        if req.page_token and not req.page_token.startswith("at-"):
            await abort_with_info(context, grpc.StatusCode.INVALID_ARGUMENT, "page_token is not valid", "INVALID_ARGUMENT")
        start = int(req.page_token.removeprefix("at-") or 0)
        end = min(start + req.page_size, len(self.ids)) if req.page_size else len(self.ids)
        sessions = [session_pb2.Session(id=i, app_name=req.app_name, user_id=req.user_id) for i in self.ids[start:end]]
        token = f"at-{end}" if end < len(self.ids) else ""
        return session_service_pb2.ListSessionsResponse(sessions=sessions, next_page_token=token)


@pytest.fixture
def paged_list(fake: FakeServer) -> PagedList:
    listing = PagedList(5)
    fake.list_sessions = listing.list_sessions
    return listing


async def test_list_sessions_page(paged_list: PagedList, fake_client: agentsvc.Client) -> None:
    page = await fake_client.list_sessions_page("echo", "alice", page_size=2)
    assert [s.id for s in page.sessions] == ["s0", "s1"]
    assert page.next_page_token == "at-2" and not page.last
    req = paged_list.requests[0]
    assert (req.app_name, req.user_id, req.page_size, req.page_token) == ("echo", "alice", 2, "")
    last = await fake_client.list_sessions_page("echo", "alice", page_size=10, page_token="at-4")
    assert [s.id for s in last.sessions] == ["s4"] and last.last


async def test_iter_sessions_reads_every_page_once_in_order(paged_list: PagedList, fake_client: agentsvc.Client) -> None:
    ids = [s.id async for s in fake_client.iter_sessions("echo", "alice", page_size=2)]
    assert ids == [f"s{i}" for i in range(5)]
    assert [r.page_token for r in paged_list.requests] == ["", "at-2", "at-4"]


async def test_list_sessions_unpaged(paged_list: PagedList, fake_client: agentsvc.Client) -> None:
    sessions = await fake_client.list_sessions("echo", "alice")
    assert [s.id for s in sessions] == [f"s{i}" for i in range(5)]
    assert paged_list.requests[0].page_size == 0


async def test_list_sessions_page_errors(paged_list: PagedList, fake_client: agentsvc.Client) -> None:
    with pytest.raises(ValueError):
        await fake_client.list_sessions_page("echo", "alice", page_size=0)
    with pytest.raises(agentsvc.InvalidArgumentError):
        await fake_client.list_sessions_page("echo", "alice", page_token="bogus")
