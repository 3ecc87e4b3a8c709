"""The judge's reference checks in a killable process of their own, out of the runs' way.

A claim the answers at hand cannot settle goes to the reference method (claims.py): the
puzzle encoded, solved with a proof, the proof loaded and checked, or a count re-derived.
That can take seconds and gigabytes (an empty 49x49 "no solution" claim took 74 s and
2.7 GB). Done in the sweep's own process it would hold up the workers' answers, whose
arrival times are the harness's clock of each run, and a MemoryError there would end the
sweep. So the checks run here:

- in one process of their own (started when the first check comes, as a worker is:
  engine/zygote.py; in a session of its own, dying with the sweep), its memory capped
  (``memory_mb`` above what it has loaded, RLIMIT_AS): a MemoryError there is an unchecked verdict saying so;
- under a real budget over everything a check does: the process stops itself at
  ``budget_s`` (claims.settle) and is killed from here ``KILL_GRACE`` seconds later, the
  verdict then unchecked and a fresh process started for the next check;
- fed and read by a thread of the sweep's process that only waits on a pipe, so the
  sweep's main loop never waits for a check (``submit`` and ``ready`` do not block);
- each check once: verdicts are remembered (``CACHE_SIZE``) and a check already asked
  for is not asked again.

Whatever happens to the process (a crash, a kill, a stalled answer), the check's verdict
is ``unchecked`` with the reason, and the sweep goes on.
"""
from __future__ import annotations

import os
import queue
import secrets
import signal
import threading
import time
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

from ..engine import zygote
from ..engine.sandbox import isolate, kill_marked, kill_tree, limit_memory
from ..tasks import JUDGE_MEMORY_MB
from .claims import BUDGET_S, CACHE_SIZE, Check, ClaimCheck, Proof, settle

MEMORY_MB = JUDGE_MEMORY_MB
"""Address space (MB) a check may add to the judge's process, by default."""
KILL_GRACE = 1.0
"""Seconds past its budget a check is given to stop itself before its process is killed."""
START_LIMIT = 120.0
"""Seconds the judge's process may take to start (import python-sat) before it is given up."""


class JudgeProcess:
    """Settles claims.Check questions in a process of its own (see the module's text)."""

    def __init__(self, budget_s: float = BUDGET_S, memory_mb: float = MEMORY_MB,
                 cache_size: int = CACHE_SIZE) -> None:
        self.budget_s, self.memory_mb, self.cache_size = budget_s, memory_mb, cache_size
        self._requests: queue.Queue[Check | None] = queue.Queue()
        self._answers: queue.Queue[tuple[Check, ClaimCheck]] = queue.Queue()
        self._cache: OrderedDict[Check, ClaimCheck] = OrderedDict()
        self._asked: set[Check] = set()
        self._early: list[tuple[Check, ClaimCheck]] = []  # answers read by settle for ready
        self._thread: threading.Thread | None = None
        self._server = _Server(budget_s, memory_mb)
        self.checks = 0
        """Checks sent to the process (not answered from the cache)."""

    def submit(self, check: Check) -> ClaimCheck | None:
        """Ask for a check: its verdict at once when known, else None (it comes from ``ready``)."""
        known = self._cache.get(check)
        if known is not None:
            self._cache.move_to_end(check)
            return known
        if check not in self._asked:
            self._asked.add(check)
            self.checks += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="judge", daemon=True)
                self._thread.start()
            self._requests.put(check)
        return None

    def ready(self, timeout: float = 0.0) -> list[tuple[Check, ClaimCheck]]:
        """The verdicts that came since the last call, waiting up to ``timeout`` seconds for
        the first one when none has."""
        found, self._early = self._early, []
        try:
            if not found and timeout > 0 and self._asked:
                found.append(self._answers.get(timeout=timeout))
            while True:
                found.append(self._answers.get_nowait())
        except queue.Empty:
            pass
        for check, verdict in found:
            self._asked.discard(check)
            self._cache[check] = verdict
            if len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return found

    @property
    def busy(self) -> bool:
        """Whether a check asked for is still unanswered."""
        return bool(self._asked)

    def settle(self, check: Check) -> ClaimCheck:
        """A check's verdict, waiting for it (for a caller with nothing else to do, e.g. solve)."""
        known = self.submit(check)
        while known is None:
            arrived = self.ready(timeout=1.0)
            self._early += [item for item in arrived if item[0] != check]
            known = next((verdict for asked, verdict in arrived if asked == check), None)
        return known

    def close(self) -> None:
        """Stop the thread and the process (an unfinished check is dropped)."""
        self._requests.put(None)
        self._server.stop()
        if self._thread is not None:
            self._thread.join(timeout=KILL_GRACE + 5.0)

    def _serve(self) -> None:
        """The thread: each request to the process in turn, each verdict back (never raises)."""
        while (check := self._requests.get()) is not None:
            try:
                verdict = self._server.ask(check)
            except Exception as error:  # noqa: BLE001 - nothing here may end the sweep
                verdict = ClaimCheck(Proof.UNCHECKED, f"the judge's process failed: {type(error).__name__}: {error}")
            self._answers.put((check, verdict))
        self._server.stop()


class _Server:
    """The judge's process as the thread sees it: started on demand, asked, killed when late."""

    def __init__(self, budget_s: float, memory_mb: float) -> None:
        self.budget_s, self.memory_mb = budget_s, memory_mb
        self.token = f"judge.{secrets.token_hex(6)}"
        self.process: Any = None
        self.connection: Connection | None = None
        self.lock = threading.Lock()

    def ask(self, check: Check) -> ClaimCheck:
        """One check, settled by the process within the budget and the grace, or unchecked."""
        problem = self._start()
        if problem is not None:
            return ClaimCheck(Proof.UNCHECKED, problem)
        assert self.connection is not None
        started = time.monotonic()
        try:
            self.connection.send(check)
            if self.connection.poll(self.budget_s + KILL_GRACE):
                verdict = self.connection.recv()
                if isinstance(verdict, ClaimCheck):
                    return verdict
                self.stop()
                return ClaimCheck(Proof.UNCHECKED, "the judge's process answered something else")
        except (EOFError, OSError):
            return ClaimCheck(Proof.UNCHECKED, f"the judge's process died during the check "
                                               f"({self._death()}), after {time.monotonic() - started:.1f} s")
        self.stop()
        return ClaimCheck(Proof.UNCHECKED, f"the check went past its budget of {self.budget_s:g} s "
                                           f"(encoding, solving, proof loading and checking together): "
                                           "the judge's process was killed", seconds=time.monotonic() - started)

    def _start(self) -> str | None:
        """Start the process unless it runs; why it could not, or None."""
        with self.lock:
            if self.process is not None and self.process.is_alive():
                return None
            self._end()
            context = zygote.context()
            mine, theirs = context.Pipe()
            process = context.Process(target=_judge_main, name="judge", daemon=True,
                                      args=(theirs, os.getpid(), self.token, self.budget_s, self.memory_mb,
                                            dict(os.environ)))
            process.start()
            theirs.close()
            self.process, self.connection = process, mine
        try:
            if mine.poll(START_LIMIT) and mine.recv() == "ready":
                return None
        except (EOFError, OSError):
            pass
        self.stop()
        return f"the judge's process did not start within {START_LIMIT:g} s"

    def _death(self) -> str:
        process = self.process
        if process is None:
            return "stopped"
        process.join(timeout=1.0)
        code = process.exitcode
        self.stop()
        if code is None:
            return "no exit status"
        return f"killed by signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}"

    def stop(self) -> None:
        """Kill the process (and anything it started); the next check starts a fresh one."""
        with self.lock:
            self._end()

    def _end(self) -> None:
        if self.process is not None:
            kill_tree(self.process.pid, self.token)
            self.process.join(timeout=5.0)
        if self.connection is not None:
            self.connection.close()
        self.process = self.connection = None
        kill_marked(self.token)


def _judge_main(connection: Connection, parent: int, token: str, budget_s: float, memory_mb: float,
                environ: dict[str, str]) -> None:
    """The judge's process: isolated, quiet, its memory capped; each Check settled and sent back."""
    isolate(parent, token, environ)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the sweep's to handle
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # nothing here may reach the sweep's stdout or terminal
    os.dup2(quiet, 2)
    try:
        import pysat.solvers  # noqa: F401, PLC0415 - loaded before the first check's budget starts
    except ImportError:
        pass
    limit_memory(memory_mb)
    connection.send("ready")
    while True:
        try:
            check = connection.recv()
        except (EOFError, OSError):
            return
        connection.send(_settled(check, budget_s, memory_mb))


def _settled(check: Check, budget_s: float, memory_mb: float) -> ClaimCheck:
    """The check's verdict; a failure of the check itself is an unchecked verdict saying why."""
    try:
        return settle(check, budget_s)
    except MemoryError:
        return ClaimCheck(Proof.UNCHECKED, f"the check ran out of the judge's memory "
                                           f"({memory_mb:g} MB above what it had loaded)")
    except Exception as error:  # noqa: BLE001 - the judge's own fault: said, never fatal
        return ClaimCheck(Proof.UNCHECKED, f"the check failed: {type(error).__name__}: {str(error)[:300]}")
