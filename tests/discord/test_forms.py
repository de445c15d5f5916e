"""The fake's form parser reads what aiohttp (discord.py's HTTP client) writes, and refuses broken bodies."""

from __future__ import annotations

import json

import pytest
from aiohttp import FormData

from tests.discord.forms import form_parts, media_type, parameters


class _Sink:
    """Collects what a multipart writer writes."""

    def __init__(self) -> None:
        self.data = bytearray()

    async def write(self, chunk: bytes) -> None:
        self.data += chunk


async def _encoded(form: FormData) -> tuple[bytes, str]:
    writer = form()
    sink = _Sink()
    await writer.write(sink)  # type: ignore[arg-type]
    return bytes(sink.data), writer.headers["Content-Type"]


async def test_reads_a_message_with_files_as_discord_py_sends_it() -> None:
    form = FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": 'a "quoted" line\r\n--x'}))
    form.add_field("files[0]", b"\x89PNG\r\n\r\n--binary", filename="board.png", content_type="image/png")
    form.add_field("files[1]", b"", filename='odd "name".txt', content_type="text/plain")
    body, content_type = await _encoded(form)
    kind, params = media_type(content_type)
    assert kind == "multipart/form-data"
    parts = form_parts(body, params["boundary"])
    assert [p.name for p in parts] == ["payload_json", "files[0]", "files[1]"]
    assert json.loads(parts[0].data) == {"content": 'a "quoted" line\r\n--x'}
    assert (parts[1].filename, parts[1].content_type, parts[1].data) == (
        "board.png",
        "image/png",
        b"\x89PNG\r\n\r\n--binary",
    )
    assert (parts[2].filename, parts[2].data) == ('odd "name".txt', b"")


def test_extended_parameters_are_decoded_and_win() -> None:
    found = parameters("; name=plain; filename=\"a.png\"; filename*=utf-8''caf%C3%A9.png")
    assert found == {"name": "plain", "filename": "café.png"}
    assert media_type('Multipart/Form-Data; boundary="b\\"1"') == ("multipart/form-data", {"boundary": 'b"1'})
    assert media_type(None) == ("", {})


def test_a_body_with_a_preamble_and_a_part_without_headers() -> None:
    body = (
        b"ignored preamble\r\n--b\r\n\r\nbare\r\n"
        b"--b\r\nContent-Disposition: form-data; name=x\r\n\r\n1\r\n--b--\r\n"
    )
    parts = form_parts(body, "b")
    assert [(p.name, p.data) for p in parts] == [(None, b"bare"), ("x", b"1")]


@pytest.mark.parametrize(
    "body",
    [
        b"no delimiter at all",
        b"--b\r\nContent-Disposition: form-data; name=x\r\n\r\n1\r\n",  # never closed
        b"--b\r\nContent-Disposition: form-data; name=x\r\n1\r\n--b--",  # no blank line after headers
    ],
)
def test_broken_bodies_are_refused(body: bytes) -> None:
    with pytest.raises(ValueError):
        form_parts(body, "b")
