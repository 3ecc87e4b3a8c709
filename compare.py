"""Compare Sudoku solving methods side by side: ``python compare.py`` (see ``-h``).

Runs the backends in worker processes under a wall-clock limit, checks every answer
with the independent checker (models.verify), reports disagreement, and tabulates.
"""
import sys

if __name__ == "__main__":
    # imported here, not at the top: each worker (spawned, or forked from the worker server)
    # runs this file again (as __mp_main__), and importing every command there cost 0.1 s a worker
    from solvers.harness.cli import main

    sys.exit(main())
