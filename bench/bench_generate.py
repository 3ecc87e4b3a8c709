"""How long the generator takes for a locally minimal puzzle: ``compare.py generate`` timed as a
user runs it (the targets table's "a locally minimal 16x16 generated in seconds").

    python bench/bench_generate.py [--size 16] [--count 5] [--seed 1] [--json OUT.json]

Runs ``compare.py generate --size SIZE --count COUNT --seed SEED`` in a fresh interpreter and
reports its wall time and its CPU time (the child's, from the operating system), each per
puzzle, and the givens of each puzzle it wrote. The puzzles (and so their givens) depend
only on the seed; the times are the machine's (the CPU time much less its load).
"""
from __future__ import annotations

import argparse
import resource
import sys
import time

import tables
from common import compare, write_json

from solvers.harness.results.provenance import load_average


def givens_of(lines: list[str]) -> list[int]:
    """The givens of each puzzle line (comments skipped).

    >>> givens_of(["# difficulty 3", "1.2.", "..3."])
    [2, 1]
    """
    return [sum(c not in ".0" for c in line.split()[0]) for line in lines if line.strip() and not line.startswith("#")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=16)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write the figures, with provenance")
    args = parser.parse_args(argv)
    if args.count < 1:
        parser.error("--count must be at least 1")
    started = load_average()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begin = time.perf_counter()
    done = compare("generate", "--size", str(args.size), "--count", str(args.count), "--seed", str(args.seed),
                   capture_output=True)
    wall = time.perf_counter() - begin
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    givens = givens_of(done.stdout.splitlines())
    print(f"compare.py generate --size {args.size} --count {args.count} --seed {args.seed}: {len(givens)} puzzles, "
          f"givens {givens}; {wall:.1f} s of wall ({wall / args.count:.1f} s a puzzle), "
          f"{cpu:.1f} s of CPU ({cpu / args.count:.1f} s a puzzle)")
    if args.json:
        write_json(args.json, {"size": args.size, "count": args.count, "seed": args.seed, "givens": givens,
                               "wall_s": wall, "cpu_s": cpu, "cpu_s_per_puzzle": cpu / args.count}, started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
