"""Request bodies as Discord's HTTP API reads them: JSON, or ``multipart/form-data`` (RFC 7578) with a
``payload_json`` part and ``files[n]`` parts.

The fake reads every message a bot posts, so this parser is written for speed: the whole body is split
on its boundary in one pass, and only the two part headers Discord looks at are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

# One parameter of a header: name=token, name="quoted string" (with backslash escapes), or the RFC 8187
# extended form name*=charset'language'percent-encoded.
_PARAMETER = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a form: its field name, its file name if it is a file, its type and its bytes."""

    name: str | None
    filename: str | None
    content_type: str | None
    data: bytes


def media_type(header: str | None) -> tuple[str, dict[str, str]]:
    """A ``Content-Type`` (or ``Content-Disposition``) header's value in lower case, and its parameters."""
    if not header:
        return "", {}
    value, _, rest = header.partition(";")
    return value.strip().lower(), parameters(";" + rest)


def parameters(text: str) -> dict[str, str]:
    """The ``;name=value`` parameters of a header, names in lower case; an extended ``name*`` value is
    decoded and wins over the plain one."""
    found: dict[str, str] = {}
    extended: dict[str, str] = {}
    for name, raw in _PARAMETER.findall(text):
        name = name.lower()
        value = raw.strip()
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        if name.endswith("*"):
            charset, _, rest = value.partition("'")
            _language, _, encoded = rest.partition("'")
            extended[name[:-1]] = unquote(encoded, encoding=charset or "utf-8")
        else:
            found[name] = value
    return found | extended


def form_parts(body: bytes, boundary: str) -> list[Part]:
    """The parts of a ``multipart/form-data`` body with ``boundary``. Raises ``ValueError`` when the body
    is not one (no closing delimiter, a part without its blank line)."""
    delimiter = b"--" + boundary.encode("latin-1")
    chunks = body.split(b"\r\n" + delimiter)
    # The body opens with the first delimiter, or with a preamble that ends where it begins.
    if chunks[0].startswith(delimiter):
        chunks[0] = chunks[0][len(delimiter) :]
    elif len(chunks) > 1:
        del chunks[0]
    else:
        raise ValueError("the body has no multipart delimiter")
    if not chunks[-1].startswith(b"--"):
        raise ValueError("the body has no closing multipart delimiter")
    parts = []
    for chunk in chunks[:-1]:
        if not chunk.startswith(b"\r\n"):
            raise ValueError("a multipart delimiter is not followed by a line break")
        if chunk.startswith(b"\r\n\r\n"):
            head, data = b"", chunk[4:]  # a part without headers
        else:
            head, found, data = chunk[2:].partition(b"\r\n\r\n")
            if not found:
                raise ValueError("a multipart part has no blank line after its headers")
        headers: dict[str, str] = {}
        for line in head.decode("utf-8").split("\r\n"):
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        _kind, disposition = media_type(headers.get("content-disposition"))
        parts.append(
            Part(disposition.get("name"), disposition.get("filename"), headers.get("content-type"), data)
        )
    return parts
