"""compare.py launched for the tests through tests/forkserver.py: a process of its own with its
real command line, exit status and streams, without a fresh interpreter's start-up and imports
(about 0.3 s of CPU a launch, some hundreds of launches a suite). One server per test process,
started at the first launch and ended with the process.

What only a fresh interpreter shows (its start-up, environment variables an interpreter reads
as it starts, signals sent to the launch, closed streams) is launched for real: a launch whose
``PYTHON*`` variables differ from the server's is, and tests that need more use
subprocess themselves."""
from __future__ import annotations

import atexit
import json
import locale
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

SERVER = Path(__file__).with_name("forkserver.py")
_server: tuple[subprocess.Popen[bytes], socket.socket, dict[str, str]] | None = None
cpu_elsewhere = 0.0
"""CPU seconds of the served launches (children of the server, not of this process)."""


def _interpreter_settings(env: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in env.items() if name.startswith("PYTHON")}


def _start() -> tuple[subprocess.Popen[bytes], socket.socket, dict[str, str]]:
    global _server
    if _server is None or _server[0].poll() is not None:
        if _server is not None:
            _server[1].close()  # a server that ended: its channel too
            _unread.pop(_server[1], None)
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        process = subprocess.Popen([sys.executable, str(SERVER), str(theirs.fileno())], pass_fds=[theirs.fileno()],
                                   env=env, stdin=subprocess.DEVNULL)
        theirs.close()
        _server = (process, ours, env)
    return _server


def _stop() -> None:
    """End the server (end of its input) and reap it."""
    global _server
    if _server is not None:
        process, channel, _env = _server
        _server = None
        channel.close()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


atexit.register(_stop)


FRESH = "TEST_FRESH_INTERPRETERS"
"""Set (to anything but empty): every launch a fresh interpreter, to check that the server
changes no test's outcome."""


def served(env: dict[str, str]) -> bool:
    """Whether a launch in this environment can be served: the interpreter's own settings are
    the running server's (or, before one runs, this process's, which it will start with)."""
    server_env = _server[2] if _server is not None else dict(os.environ)
    return not os.environ.get(FRESH) and _interpreter_settings(env) == _interpreter_settings(server_env)


_unread: dict[socket.socket, bytes] = {}
"""What a channel's last read brought past its line: a launch that ends at once (a usage
error) has the server's two answers, its pid and its status, arrive in one read."""


def _read_line(channel: socket.socket) -> dict[str, Any]:
    data = _unread.pop(channel, b"")
    while b"\n" not in data:
        chunk = channel.recv(4096)
        if not chunk:
            raise RuntimeError("tests/forkserver.py ended unexpectedly")
        data += chunk
    line, _, rest = data.partition(b"\n")
    if rest:
        _unread[channel] = rest
    answer: dict[str, Any] = json.loads(line)
    return answer


def launch(script: Path, args: list[str], cwd: Path, env: dict[str, str], stdin: str | IO[bytes] | None,
           timeout: float) -> subprocess.CompletedProcess[str]:
    """``subprocess.run([python, script, *args], capture_output=True, text=True, ...)``, served."""
    global cpu_elsewhere
    _process, channel, _env = _start()
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    in_read, in_write = (os.pipe() if isinstance(stdin, str) else (None, None))
    # stdin: the text's pipe, the file given, or this process's own (as subprocess leaves it)
    source = in_read if in_read is not None else stdin.fileno() if stdin is not None else 0
    request = {"script": str(script), "args": args, "cwd": str(cwd), "env": env,
               "encoding": locale.getpreferredencoding(False)}
    try:
        socket.send_fds(channel, [json.dumps(request).encode()], [source, out_write, err_write])
    finally:
        os.close(out_write)
        os.close(err_write)
        if in_read is not None:
            os.close(in_read)
    pid = int(_read_line(channel)["pid"])
    try:
        out, err = _collect(pid, out_read, err_read, in_write, stdin if isinstance(stdin, str) else None,
                            timeout, [script, *args])
    finally:  # the server answers once the child has ended, killed past the timeout or not
        ended = _read_line(channel)
        cpu_elsewhere += float(ended["cpu"])
    status = int(ended["status"])
    return subprocess.CompletedProcess([sys.executable, str(script), *args], status, _text(out), _text(err))


def _text(data: bytes) -> str:
    """Bytes read as subprocess's text mode reads them (the locale's encoding, newlines
    translated)."""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def _collect(pid: int, out_read: int, err_read: int, in_write: int | None, text: str | None, timeout: float,
             command: list[object]) -> tuple[bytes, bytes]:
    """Feed the child its input and read its stdout and stderr to their ends, killing it (and
    raising TimeoutExpired, as subprocess.run does) past ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    chunks: dict[int, list[bytes]] = {out_read: [], err_read: []}
    pending = text.encode() if text is not None else b""
    with selectors.DefaultSelector() as selector:
        selector.register(out_read, selectors.EVENT_READ)
        selector.register(err_read, selectors.EVENT_READ)
        if in_write is not None:
            os.set_blocking(in_write, False)
            selector.register(in_write, selectors.EVENT_WRITE)
        try:
            while len(selector.get_map()) > 0:
                left = deadline - time.monotonic()
                if left <= 0:
                    os.kill(pid, signal.SIGKILL)
                    raise subprocess.TimeoutExpired([str(c) for c in command], timeout)
                for key, _events in selector.select(left):
                    fd = key.fd
                    if fd == in_write:
                        try:
                            written = os.write(fd, pending[:65536]) if pending else 0
                        except BrokenPipeError:
                            written, pending = 0, b""
                        pending = pending[written:]
                        if not pending:
                            selector.unregister(fd)
                            os.close(fd)
                            in_write = None
                        continue
                    data = os.read(fd, 65536)
                    if data:
                        chunks[fd].append(data)
                    else:
                        selector.unregister(fd)
        finally:
            for fd in (out_read, err_read, in_write):
                if fd is not None:
                    os.close(fd)
    return b"".join(chunks[out_read]), b"".join(chunks[err_read])
