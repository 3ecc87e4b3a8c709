"""Running configurations on puzzles under limits enforced from outside the backend.

configs:       configurations ``[LABEL=]BACKEND[:OPTION=VALUE...]``, checked before anything runs
plugins:       a user's own backend from a file or module; loading any configuration's backend
runner:        worker processes with a wall-clock limit (kill and replace), in task order
worker:        the worker's side: isolate, load a backend, run it, answer as plain data
chunks:        how many quick runs of one key a worker is handed in one message
startup:       when a key's next worker is worth starting; one CPU for a one-job pool's workers
channel:       the untrusted result channel: size- and depth-capped JSON frames, read without blocking
answers:       a worker's answer checked field by field (types, ranges that JSON and SQLite hold)
output:        a worker's stdout and stderr forwarded to stderr: escaped, labelled, bounded per run
sandbox:       a session per worker, death with the parent, each run's strays killed, a hard memory cap
zygote:        workers and the judge's process forked from a server that imported their modules once
timing:        wall and CPU time over one span, the collector paused, --cpu-limit, timeouts
memory:        a run's own peak resident memory (the high-water mark reset before it)
calibration:   a fixed CPU-bound probe timed when a sweep starts and ends (the machine's speed)
stopping:      SIGTERM and SIGHUP handled like Ctrl-C; exit 128+N; a closed stderr silenced
terminal:      text from outside (plugin messages, file contents) with control characters escaped
execution:     the Executor protocol, the local executor, chunking helpers
dask_executor: chunks of tasks on a Dask cluster
executors:     choosing an executor from ``--executor``
batch:         a batch entry on a whole array of puzzles in this process, its answer checked
"""
