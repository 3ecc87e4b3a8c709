"""One module per ``compare.py`` command (``add_parser`` and ``run``), and what they share.

run:       every configuration on every puzzle, verified, categorised, scored, tabulated
solve:     puzzles solved with one configuration, printed for people
export:    one puzzle's CNF in DIMACS format
decode:    an external SAT solver's answer back into a checked grid
list:      the backends, their options, packages and versions
report:    tables from saved runs (JSON or a results database)
plot:      cactus, scatter and survival plots from saved runs
study:     a classic CSP study as one table (Simonis's consistency levels)
generate:  puzzles with a unique solution
fuzz:      a solver's bugs hunted with generated puzzles, mutants and references, each shrunk
ladder:    the teaching ladder: what each rung of inference buys
explain:   one solve as numbered sentences
rate:      each puzzle's difficulty by the human-style solver, and a table over the file
render:    one puzzle and its solution as a picture
replay:    a trace as a self-contained HTML page
tree:      the search tree of one solve as an SVG picture
common:    usage errors, exit statuses, reading puzzles, picking one (--puzzle K), shared options
progress:  progress on stderr with a total and the time left: a bar, or plain lines
summary:   what a sweep prints and saves when it ends (run, and run --db)
batch:     run --batch and solve --batch: whole files through a backend's batch entry
sweep_db:  a sweep written run by run to a results database
tracing:   one puzzle solved by a readable backend while its trace is recorded
uniqueness: whether a puzzle is known to have one solution (--uniqueness), for the human solver
study:     the classic studies as one table each (Simonis's consistency levels)
"""
