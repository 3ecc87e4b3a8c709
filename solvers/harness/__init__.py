"""The comparison harness behind ``compare.py``.

runner:     worker processes with a wall-clock limit enforced from outside (kill and replace)
worker:     the worker's side: isolate, load a backend, run it, send its answer as plain data
channel:    the untrusted result channel: size-capped JSON frames, read without blocking
sandbox:    a session per worker, death with the parent, killing a group and its strays, RLIMIT_AS
stopping:   SIGTERM and SIGHUP handled like Ctrl-C; exit 128+N
timing:     wall and CPU time, and when a run is a timeout (recorded at the limit)
judge:      verifies every answer and sorts each run into correct / wrong / timeout /
            memory-out / unknown / error
configs:    configurations ``[LABEL=]BACKEND[:OPTION=VALUE;...]``, plugins among them
experiment: puzzles x configurations x repetitions, run and judged (partial on Ctrl-C)
records:    the one per-run record of the JSON and the CSV
report:     summary tables (tabulate), CSV, JSON documents, and the change between two saved runs
scores:     PAR-K, solved within the limit, the virtual best solver
paired:     two runs pair by pair: wins, losses, ties, geometric-mean ratio, sign test
views:      the per-puzzle pivot table, and rows as table, Markdown, CSV or JSON
provenance: versions, git commit, machine and settings saved with every run
outputs:    output paths checked before a run, files written whole
plot:       cactus and scatter plots (matplotlib, imported only when asked for)
plugins:    a user's own backend from ``path/to/file.py:function`` or ``module:function``
cli:        the command line: builds the parser and dispatches to command_<name>.py modules
common:     what the commands share (usage errors, reading puzzles, shared options)
"""
