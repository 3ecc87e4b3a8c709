"""Puzzle generation: unique puzzles of any size and variant (``generator``); its command is solvers/harness/commands/generate.py."""
