"""Puzzle generation: unique puzzles of any size and variant (``generator``) and its command (``cli``)."""
