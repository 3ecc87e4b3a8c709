"""Puzzle generation: unique puzzles of any size and variant (``generator``, searching with its
own singles propagation, ``search``), killer puzzles (``killer``) and quasigroups with holes
(``qwh``); the command is solvers/harness/commands/generate.py."""
