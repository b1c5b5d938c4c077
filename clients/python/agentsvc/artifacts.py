"""Artifacts: the versioned files of a session, or of its user under names
starting ``user:``, as ADK's artifact services keep them.

:class:`~agentsvc.Client` reads and writes them (``list_artifacts``,
``load_artifact``, ``save_artifact``...); tools and callbacks save them
through :meth:`ToolContext.save_artifact` and
:meth:`CallbackContext.save_artifact`. An artifact's content is a
:class:`~agentsvc.Part` holding either inline data (bytes with a MIME type)
or text.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from agentsvc.v1 import artifact_service_pb2, content_pb2

__all__ = ["USER_PREFIX", "ArtifactData", "ArtifactVersion"]

#: Artifacts whose name starts with this belong to the user: every session
#: of the user sees them.
USER_PREFIX = "user:"

#: One stored version of an artifact, as ADK's ``ArtifactVersion``:
#: ``version`` (from 0), ``canonical_uri``, ``custom_metadata`` (a Struct),
#: ``create_time`` (Unix seconds) and ``mime_type``.
ArtifactVersion = artifact_service_pb2.ArtifactVersion

#: What a save accepts as an artifact's content: bytes (with a
#: ``mime_type``), text, or a Part holding inline data or text.
ArtifactData = bytes | bytearray | memoryview | str | content_pb2.Part


def artifact_part(data: ArtifactData, mime_type: str | None = None) -> content_pb2.Part:
    """Returns ``data`` as the Part to store.

    Bytes become inline data of ``mime_type``, which they need; text becomes
    a text part; a Part is copied as is, and must hold inline data or text.
    ``mime_type`` goes with bytes only (encode text to save it with a MIME
    type of its own).

    Raises:
        TypeError: ``data`` is None or of another type.
        ValueError: bytes without a MIME type, a MIME type with text or a
            Part, empty text, or a Part without inline data or text.
    """
    if mime_type is not None and not isinstance(mime_type, str):
        raise TypeError(f"mime_type must be a str, not {type(mime_type).__name__}")
    if isinstance(data, (bytes, bytearray, memoryview)):
        if not mime_type:
            raise ValueError("bytes need a mime_type, e.g. mime_type='application/pdf'")
        return content_pb2.Part(inline_data=content_pb2.Blob(mime_type=mime_type, data=bytes(data)))
    if mime_type is not None:
        raise ValueError("mime_type goes with bytes only: pass text.encode() to save text with a MIME type")
    if isinstance(data, str):
        if not data:
            raise ValueError("an artifact's text must not be empty")
        return content_pb2.Part(text=data)
    if isinstance(data, content_pb2.Part):
        if not data.HasField("inline_data") and not data.text:
            raise ValueError("an artifact Part must hold inline_data or a non-empty text")
        part = content_pb2.Part()
        part.CopyFrom(data)
        return part
    if data is None:
        raise TypeError("artifact data must be bytes, str or a Part, not None")
    raise TypeError(f"artifact data must be bytes, str or a Part, not {type(data).__name__}")


def check_filename(filename: str) -> None:
    """Applies ADK's checks of an artifact's name, as the service does: not
    empty (less the ``user:`` prefix and white space), no NUL, not rooted or
    drive-qualified, no ``..`` segment.

    Raises:
        TypeError: ``filename`` is not a str.
        ValueError: the service would refuse the name.
    """
    if not isinstance(filename, str):
        raise TypeError(f"an artifact's filename must be a str, not {type(filename).__name__}")
    name = filename.removeprefix(USER_PREFIX).strip()
    if not name:
        raise ValueError("an artifact's filename must not be empty")
    if "\x00" in filename:
        raise ValueError("an artifact's filename must not contain null bytes")
    if name.startswith(("/", "\\")) or (len(name) >= 2 and name[1] == ":" and name[0].isascii() and name[0].isalpha()):
        raise ValueError(f"artifact filename {filename!r} must be relative: not rooted or drive-qualified")
    if ".." in name.replace("\\", "/").split("/"):
        raise ValueError(f"artifact filename {filename!r} must not contain parent traversal")
    try:
        filename.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"artifact filename {filename!r} is not valid UTF-8 (it holds a lone surrogate)") from None


def save_to(
    files: MutableMapping[str, content_pb2.Part], filename: str, data: ArtifactData, mime_type: str | None
) -> None:
    """Checks a save of a tool or callback and records it in ``files``."""
    check_filename(filename)
    files[filename] = artifact_part(data, mime_type)
