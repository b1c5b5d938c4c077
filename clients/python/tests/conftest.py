"""Shared fixtures: an in-process fake server for unit tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import agentsvc
from tests.fakeserver import FakeServer


@pytest.fixture
async def fake() -> AsyncIterator[FakeServer]:
    server = FakeServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def fake_client(fake: FakeServer) -> AsyncIterator[agentsvc.Client]:
    async with agentsvc.Client(fake.target) as client:
        yield client
