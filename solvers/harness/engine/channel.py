"""The worker-to-parent result channel: length-prefixed JSON frames, read as untrusted bytes.

A backend runs inside the worker and can reach the channel's file descriptor, so the
parent trusts nothing it reads there. Every frame is ``MAGIC`` + a 4-byte big-endian
length + that many bytes of UTF-8 JSON holding one object; a frame over ``MAX_FRAME``
bytes, a wrong magic, bytes that are not JSON or not an object, or JSON nested deeper
than ``MAX_DEPTH`` (measured without recursion before it is decoded: a decoder that
recursed through 200,000 brackets would overflow) make the channel broken
(``ChannelError``), and the parent then ends that worker. What a well-formed frame
holds is checked field by field afterwards (answers.py). The parent reads
without blocking, so a half-written frame never stalls it: the run's limit goes on.

>>> reader = FrameReader()
>>> frame = encode_frame({"kind": "started", "task": 3})
>>> reader.feed(frame[:5]), reader.feed(frame[5:])
([], [{'kind': 'started', 'task': 3}])
>>> FrameReader().feed(b"garbage!")
Traceback (most recent call last):
...
solvers.harness.engine.channel.ChannelError: the result channel held bytes that are not a frame: b'garbage!'
"""
from __future__ import annotations

import json
import os
import re
import struct
from typing import Any

MAGIC = b"SKR1"
HEADER = struct.Struct(">4sI")
MAX_FRAME = 8 * 1024 * 1024
"""Bytes one message may take: far more than two solutions of the largest grid need."""
MAX_DEPTH = 16
"""Nesting one message may have: an answer needs 4 (frame, outcome, solutions, a solution)."""
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class ChannelError(Exception):
    """What came down the channel is not a well-formed frame; the message says what."""


def encode_frame(message: dict[str, Any]) -> bytes:
    """One message as a frame; ValueError if it cannot be JSON or is too large."""
    body = json.dumps(message, allow_nan=False, separators=(",", ":")).encode()
    if len(body) > MAX_FRAME:
        raise ValueError(f"message of {len(body)} bytes is over the channel's {MAX_FRAME}")
    return HEADER.pack(MAGIC, len(body)) + body


def write_frame(fd: int, message: dict[str, Any]) -> None:
    """Write one whole frame to a (blocking) file descriptor."""
    data = memoryview(encode_frame(message))
    while data:
        data = data[os.write(fd, data):]


class FrameReader:
    """Turns bytes, as they arrive, into messages; keeps at most one partial frame."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """The complete messages the bytes so far make; ChannelError on anything else."""
        self.buffer += data
        messages = []
        while len(self.buffer) >= HEADER.size:
            magic, length = HEADER.unpack_from(self.buffer)
            if magic != MAGIC:
                raise ChannelError("the result channel held bytes that are not a frame: "
                                   f"{bytes(self.buffer[:16])!r}")
            if length > MAX_FRAME:
                raise ChannelError(f"a frame of {length} bytes announced; at most {MAX_FRAME} allowed")
            if len(self.buffer) < HEADER.size + length:
                break
            body = bytes(self.buffer[HEADER.size:HEADER.size + length])
            del self.buffer[:HEADER.size + length]
            messages.append(_decode(body))
        if self.buffer[:len(MAGIC)] != MAGIC[:len(self.buffer[:len(MAGIC)])]:
            raise ChannelError("the result channel held bytes that are not a frame: "
                               f"{bytes(self.buffer[:16])!r}")
        return messages

    @property
    def pending(self) -> bool:
        """Whether part of a frame has arrived and the rest has not."""
        return bool(self.buffer)


def shallow(body: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the brackets of a JSON text (strings left out) pair up and nest at most about
    ``limit`` deep: at most ``limit`` passes, each removing the innermost ``[]`` pairs and
    then the innermost ``{}`` pairs, must leave nothing. Every text nested at most ``limit``
    deep passes; none nested deeper than twice that does. No recursion, and ``limit`` scans.

    >>> shallow(b'{"a": [1, [2], "]]]"]}', 3), shallow(b"[" * 40 + b"]" * 40), shallow(b"[[]")
    (True, False, False)
    """
    marks = _STRING.sub(b"", body).translate(None, _NOT_BRACKETS)
    for passes in range(limit):
        if re.search(rb"[\[{]{%d}" % (2 * (limit - passes) + 1), marks):
            return False  # a run of openings alone goes deeper than the limit allows
        shorter = marks.replace(b"[]", b"").replace(b"{}", b"")
        if not shorter or len(shorter) == len(marks):
            return not shorter  # all paired up, or some never will
        marks = shorter
    return False


def _decode(body: bytes) -> dict[str, Any]:
    few = body.count(b"[") + body.count(b"{") <= MAX_DEPTH  # then no deeper than that: no scan
    if not few and not shallow(body):
        raise ChannelError(f"a frame nested deeper than {MAX_DEPTH} levels, or with unbalanced brackets")
    try:
        message = _DECODER.decode(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ChannelError(f"a frame that is not JSON: {str(error)[:200]}") from None
    if not isinstance(message, dict):
        raise ChannelError(f"a frame holding {type(message).__name__}, not an object")
    return message


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not allowed")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
"""One decoder for every frame (json.loads with an option builds a new one each call: three
times a run)."""


def read_available(fd: int, limit: int = MAX_FRAME + HEADER.size) -> tuple[bytes, bool]:
    """Bytes waiting on a non-blocking descriptor (at most ``limit``) and whether it is closed."""
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        try:
            chunk = os.read(fd, min(65536, limit - total))
        except BlockingIOError:
            return b"".join(chunks), False
        except OSError:
            return b"".join(chunks), True
        if not chunk:
            return b"".join(chunks), True
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks), False
