"""One module per solving method, each with ``solve(model, *, max_solutions, time_limit, **options)``.

Nothing else lives here: what several methods share is in ``solvers.encodings``, and
``solvers.registry`` names the methods and loads them lazily.
"""
