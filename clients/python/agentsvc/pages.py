"""Pages of a session's events, as ``GetSession`` serves them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agentsvc.v1 import event_pb2, session_pb2

__all__ = ["DEFAULT_PAGE_SIZE", "SessionListPage", "SessionPage"]

#: Events per page unless told otherwise; the service serves at most 1000
#: a page, and ends a page early rather than send more than 4 MiB.
DEFAULT_PAGE_SIZE = 100


@dataclass(frozen=True)
class SessionPage:
    """One page of a session, from :meth:`Client.get_session_page`.

    Attributes:
        session: The session (id, state, last update) with this page's
            events only, oldest first.
        next_page_token: Pass it as ``page_token`` to read the next page;
            ``""`` on the last page.
    """

    session: session_pb2.Session
    next_page_token: str

    @property
    def events(self) -> Sequence[event_pb2.Event]:
        """The page's events, oldest first."""
        return self.session.events

    @property
    def last(self) -> bool:
        """Whether this is the session's last page."""
        return not self.next_page_token


@dataclass(frozen=True)
class SessionListPage:
    """One page of a user's sessions, from :meth:`Client.list_sessions_page`.

    Attributes:
        sessions: The page's sessions, without events, oldest first.
        next_page_token: Pass it as ``page_token`` to read the next page;
            ``""`` on the last page.
    """

    sessions: Sequence[session_pb2.Session]
    next_page_token: str

    @property
    def last(self) -> bool:
        """Whether this is the listing's last page."""
        return not self.next_page_token
