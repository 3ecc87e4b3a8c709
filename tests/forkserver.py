"""The test suite's launcher of compare.py (tests/launcher.py): a server that imports the
toolkit once, then forks one child per launch, each running compare.py as ``python
compare.py ARGS`` runs it: its own process, pid and exit status, stdin, stdout and stderr on
the pipes given, the environment, working folder and arguments asked for, the script run as
``__main__`` (so its workers are spawned from compare.py as a user's are). What it saves is
each launch's interpreter start and imports: about 0.3 s of CPU.

Run as ``python tests/forkserver.py FD``: FD is a Unix socket. Each request is a JSON object
(script, args, cwd, env) with three file descriptors (stdin, stdout, stderr); the server
answers ``{"pid": N}`` when the child is forked and ``{"status": S, "cpu": C}`` when it has
ended (S as os.waitstatus_to_exitcode gives it; C the CPU seconds of the child and of the
processes it waited for). End of input ends the server.
"""
from __future__ import annotations

import atexit
import importlib
import io
import json
import os
import pkgutil
import random
import runpy
import signal
import socket
import sys
import threading
import traceback
from typing import Any, NoReturn

# What every compare.py command imports before it works, and what the commands import as they
# run (numpy and the toolkit's own command and results modules, about 0.2 s of CPU a launch).
# The backends' libraries are left to the launch that uses them: some start threads on import,
# and a fork copies only the thread that forks (numpy's OpenBLAS stops its own pool before a
# fork and starts it again when needed).
import numpy  # noqa: F401 - preloaded for the children

import solvers.harness.cli
import solvers.harness.commands
import solvers.harness.results

NOT_PRELOADED = ("numba", "ortools", "pysat", "matplotlib", "dask", "minizinc", "clingo", "pychoco", "highspy")
"""Libraries the server must not have imported (tests/test_launcher.py checks it)."""


def _preload() -> None:
    """Import every command and results module, as the commands would in the child."""
    for package in (solvers.harness.commands, solvers.harness.results):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)

PREFIX = "PYTHON"
"""Environment variables that an interpreter reads only as it starts: a launch that sets them
otherwise than the server's environment is not served (tests/launcher.py launches it)."""


def _streams(encoding: str) -> None:
    """sys.stdin, stdout and stderr on fds 0-2, set up as an interpreter sets them for pipes."""
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "r", closefd=False)),
                                                 encoding=encoding, errors="strict")
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False)),
                                                   encoding=encoding, errors="strict")
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.BufferedWriter(io.FileIO(2, "w", closefd=False)),
                                                   encoding=encoding, errors="backslashreplace",
                                                   line_buffering=True)


def _exit_code(code: object) -> int:
    """The exit status an interpreter gives SystemExit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _flushed(code: int) -> int:
    """Flush stdout and stderr as an interpreter does at exit (120 when stdout cannot be)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:
                code = 120
    return code


def _child(request: dict[str, Any], fds: list[int]) -> NoReturn:
    """Become ``python SCRIPT ARGS`` in the folder and environment asked for; never returns."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in set(fds) - {0, 1, 2}:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        random.seed()  # a fresh interpreter seeds from the system; a fork would repeat the server's
        script = request["script"]
        sys.argv = [script, *request["args"]]
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        _streams(request["encoding"])
        try:
            runpy.run_path(script, run_name="__main__")
            code = 0
        except SystemExit as stop:
            code = _exit_code(stop.code)
        except KeyboardInterrupt:
            traceback.print_exc()
            _flushed(0)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)  # ended by the signal, as an interpreter is
        except BaseException:  # noqa: BLE001 - the interpreter's own last resort: print it, exit 1
            traceback.print_exc()
            code = 1
        threading._shutdown()  # type: ignore[attr-defined]  # what the interpreter does at exit
        atexit._run_exitfuncs()
        code = _flushed(code)
    finally:
        os._exit(code)


def serve(channel: socket.socket) -> None:
    """Fork a child for each request until the channel closes; answer its pid, then its end."""
    while True:
        message, fds, _flags, _address = socket.recv_fds(channel, 1 << 20, 3)
        if not message:
            return
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:
            channel.close()
            _child(request, fds)
        for fd in fds:
            os.close(fd)
        channel.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        _pid, status, usage = os.wait4(pid, 0)
        cpu = usage.ru_utime + usage.ru_stime
        channel.sendall(json.dumps({"status": os.waitstatus_to_exitcode(status), "cpu": cpu}).encode() + b"\n")


if __name__ == "__main__":
    _preload()
    serve(socket.socket(fileno=int(sys.argv[1])))
