"""Fuzzing: generated instances, their mutants and several oracles hunt a solver's bugs, and
each failure is shrunk to a small puzzle (``compare.py fuzz``, docs/fuzzing.md).

mutators:  a puzzle's symmetries that keep its groups, and one given more or less
relations: the metamorphic relations between a puzzle's answer and its mutant's
oracles:   what makes a judged run a finding, and of which kind
trials:    puzzles run by configurations in a mode, through the engine, and judged
cases:     one generated instance, its mode and its mutants; what its judged runs reveal
shrink:    delta debugging over givens, cages and extra groups to a 1-minimal puzzle
minimise:  a finding made small: a smaller grid tried, then ddmin, each candidate re-checked
campaign:  the search within the budget, the findings kept, then each one shrunk
findings:  a finding, the command that reproduces it, and the files that hold it
"""
