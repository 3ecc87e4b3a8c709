"""The comparison harness behind ``compare.py``, in layers that import only downward:

cli:       the command line: builds the parser and dispatches to one module per command
commands:  one module per command; turns the arguments into an Experiment (tasks.py)
fuzz:      generated instances, their mutants, metamorphic relations and the shrinker
pictures:  plots, rendered grids, the replay page (matplotlib loaded only when asked for)
results:   judging, records, tables, scores, paired statistics, the results database, provenance
engine:    configurations, worker processes under limits enforced from outside, executors, plugins
tasks:     the shared data types: Configuration, Task, Outcome, Experiment, Outputs, Category,
           and RUN_FIELDS, the one definition of a run's record
"""
