"""The README's first command on a fresh clone, timed phase by phase (issue 36 item 3: under
90 s on a fresh 2-core machine, the install included).

    python bench/bench_first_run.py [--source PATH] [--runs 3] [--json OUT.json] [--keep]
    python bench/bench_first_run.py --packages [--source PATH]   # each package's install alone
    python bench/bench_first_run.py --command "python3 -m venv .venv && ..."   # another command

Each run clones ``--source`` (a git checkout, default this one: commit first) into a new
temporary folder, reads the first command of that clone's README set-up section, and runs its
``&&`` steps one at a time with bash in the clone, as a newcomer would: pip's cache disabled
(``PIP_NO_CACHE_DIR=1``) and numba's empty (``XDG_CACHE_HOME`` a new folder, ``NUMBA_CACHE_DIR``
unset). Per step: wall seconds and CPU seconds (user + sys of the step's process tree, from
``wait4``), and the load average before and after. The compare.py step's stderr gives each
kernel's compile time (``compiling ... took``); then the last step runs once more in the same
clone, which must load the kernels from the cache rather than compile them (``warm`` row).

``--packages`` resolves the first command's install (``pip install --dry-run --report``) and
installs each package alone (``--no-deps``) into one new venv, in dependency order, timing each:
where the install's time goes, by package, with each one's download size.

Figures move with the load: record it, and re-run on a quiet machine (bench/README.md).
Exit status 1 if a step fails or the warm run compiles again.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

from common import ROOT, write_json

COMPILED = re.compile(r"compiling (.+?) took ([0-9.]+) s")
BEGUN = re.compile(r"compiling (.+?) \(first use")


def readme_first_command(checkout: Path) -> str:
    """The first indented command of the README's set-up section (what tests/test_project.py
    checks .ci/run runs)."""
    text = (checkout / "README.md").read_text()
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return next(line.strip() for line in section.splitlines() if line.startswith("    ") and line.strip())


def fresh_env(cache: Path) -> dict[str, str]:
    """The environment of a newcomer: no pip cache, an empty numba cache, no venv active."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    env.update(PIP_NO_CACHE_DIR="1", XDG_CACHE_HOME=str(cache))
    return env


def timed_step(command: str, cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """Run one shell step; its wall and CPU seconds (the whole process tree), the load average
    before and after, its exit status, the end of its stderr, and each kernel compile it shows:
    seconds it took, and when (seconds into the step) it started and ended, so two compiles
    at once (both cores) can be told from one after the other."""
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    process = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    lines = [(time.perf_counter() - started, line.rstrip("\n")) for line in process.stderr]
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    spans: dict[str, list[float]] = {}
    for at, line in lines:
        begun, ended = BEGUN.search(line), COMPILED.search(line)
        if begun:
            spans[begun.group(1)] = [round(at, 1), round(at, 1)]
        elif ended and ended.group(1) in spans:
            spans[ended.group(1)][1] = round(at, 1)
    return {"step": command, "wall_s": round(wall, 1), "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
            "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
            "status": process.returncode,
            "compiled": {ended.group(1): float(ended.group(2)) for _, line in lines
                         if (ended := COMPILED.search(line))},
            "compile_spans": spans, "stderr_tail": [line for _, line in lines[-3:]]}


def one_run(source: Path, keep: bool, command: str | None = None) -> dict[str, Any]:
    """A fresh clone, the README's first command (or this one) step by step, then its last
    step again."""
    folder = Path(tempfile.mkdtemp(prefix="first_run_"))
    clone, cache = folder / "clone", folder / "cache"
    cache.mkdir()
    subprocess.run(["git", "clone", "-q", str(source), str(clone)], check=True)
    command = command or readme_first_command(clone)
    env = fresh_env(cache)
    steps: list[dict[str, Any]] = []
    for step in command.split("&&"):
        steps.append(timed_step(step.strip(), clone, env))
        if steps[-1]["status"] != 0:
            break
    else:
        warm = timed_step(command.split("&&")[-1].strip(), clone, env)
        warm["step"] = "(warm) " + warm["step"]
        steps.append(warm)
    commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    first = [s for s in steps if not s["step"].startswith("(warm)")]
    return {"commit": commit, "command": command, "folder": str(folder) if keep else None, "steps": steps,
            "total_wall_s": round(sum(s["wall_s"] for s in first), 1),
            "total_cpu_s": round(sum(s["cpu_s"] for s in first), 1)}


def show(run: dict[str, Any]) -> None:
    print(f"commit {run['commit']}: {run['total_wall_s']} s of wall, {run['total_cpu_s']} s of CPU in all")
    for s in run["steps"]:
        compiled = ", ".join(f"{what} {t:.1f} s" + (f" (from {span[0]} to {span[1]} s)" if (
            span := s.get("compile_spans", {}).get(what)) else "") for what, t in s["compiled"].items())
        print(f"  {s['wall_s']:7.1f} s wall {s['cpu_s']:7.1f} s CPU  load {s['load_before']:5.2f}"
              f"->{s['load_after']:5.2f}  exit {s['status']}  {s['step'][:70]}"
              + (f"\n           compiled: {compiled}" if compiled else ""))
        if s["status"] != 0:
            print("           " + "\n           ".join(s["stderr_tail"]))


def failed(run: dict[str, Any]) -> bool:
    """A step failed, or the warm run compiled a kernel again."""
    warm = [s for s in run["steps"] if s["step"].startswith("(warm)")]
    return any(s["status"] != 0 for s in run["steps"]) or not warm or bool(warm[0]["compiled"])


def packages(source: Path) -> int:
    """Each package of the first command's install alone, in one new venv: seconds and size."""
    folder = Path(tempfile.mkdtemp(prefix="first_run_pkgs_"))
    try:
        venv = folder / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "pip"), "install", "-q"]
        install = shlex.split(readme_first_command(source).split("&&")[1])
        target = install[install.index("-e") + 1]
        report = folder / "report.json"
        env = {**os.environ, "PIP_NO_CACHE_DIR": "1"}
        subprocess.run([*pip, "--dry-run", "--ignore-installed", "--report", str(report), "-e", target],
                       cwd=source, env=env, check=True, stderr=subprocess.DEVNULL)
        rows = []
        for item in reversed(json.loads(report.read_text())["install"]):  # leaves first, roughly
            name, url = item["metadata"]["name"], item["download_info"]["url"]
            local = urllib.parse.unquote(url[len("file://"):]) if url.startswith("file://") else ""
            size = os.path.getsize(local) if os.path.isfile(local) else None
            spec = target if item.get("is_direct") else f"{name}=={item['metadata']['version']}"
            step = " ".join(shlex.quote(word) for word in
                            [*pip, "--no-deps", *(["-e"] if item.get("is_direct") else []), spec])
            done = timed_step(step, source, env)
            rows.append((done["cpu_s"], done["wall_s"], name, item["metadata"]["version"], size,
                         "local" if local else "download", done["status"]))
        for cpu, wall, name, version, size, where, status in sorted(rows, reverse=True):
            shown = f"{size / 1e6:6.1f} MB" if size is not None else "       ?"
            print(f"{cpu:6.1f} s CPU {wall:6.1f} s wall  {shown}  {where:8}  {name} {version}"
                  + ("" if status == 0 else "  FAILED"))
        print(f"{sum(r[0] for r in rows):6.1f} s CPU {sum(r[1] for r in rows):6.1f} s wall in all, "
              f"{len(rows)} packages (load {os.getloadavg()[0]:.2f})")
        return 1 if any(r[6] for r in rows) else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="the git checkout to clone (default: this one)")
    parser.add_argument("--runs", type=int, default=1, help="fresh clones in turn (default: 1)")
    parser.add_argument("--json", type=Path, help="save every run's steps as JSON, with provenance")
    parser.add_argument("--keep", action="store_true", help="keep each clone (its folder is printed)")
    parser.add_argument("--packages", action="store_true", help="time each package's install alone")
    parser.add_argument("--print-command", action="store_true",
                        help="print the command it would measure (the README's first) and stop")
    parser.add_argument("--command", help="measure this command (steps joined by &&) instead of the README's "
                                          "first: a lever tried before it goes into the README")
    args = parser.parse_args()
    if not (args.source / ".git").exists():
        parser.error(f"--source {args.source}: not a git checkout")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.print_command:
        print(args.command or readme_first_command(args.source))
        return 0
    if args.packages:
        return packages(args.source)
    runs, started = [], [round(value, 2) for value in os.getloadavg()]
    for _ in range(args.runs):
        runs.append(one_run(args.source, args.keep, args.command))
        show(runs[-1])
    if args.json:
        write_json(args.json, {"runs": runs}, started)
    return 1 if any(failed(run) for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
