"""The comparison harness behind ``compare.py``.

runner:  worker processes with a wall-clock limit enforced from outside (kill and replace)
judge:   verifies every answer and sorts each run into correct / wrong / timeout / error
report:  summary tables (tabulate), CSV, JSON documents, and the change between two saved runs
plot:    the cactus plot (matplotlib, imported only when asked for)
plugins: a user's own backend from ``path/to/file.py:function`` or ``module:function``
cli:     the command line: builds the parser and dispatches to command_<name>.py modules
common:  what the commands share (usage errors, reading puzzles, choosing configurations)
"""
