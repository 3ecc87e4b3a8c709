"""Compare Sudoku solving methods side by side: ``python compare.py`` (see ``-h``).

Runs the backends in worker processes under a wall-clock limit, checks every answer
with the independent checker (models.verify), reports disagreement, and tabulates.
"""
import sys

from solvers.harness.cli import main

if __name__ == "__main__":
    sys.exit(main())
