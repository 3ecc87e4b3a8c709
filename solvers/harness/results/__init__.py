"""What runs gave, judged and turned into records, tables, scores and documents.

judge:       verifies every answer and sorts each run into a category
aggregate:   the one aggregation basis: each puzzle's repetitions, then the puzzles
claims:      the judge's reference method: claims of no, one or k solutions re-derived, proofs checked
recount:     the judge's own counter: a count claim re-derived by a search of its own
judge_process: the reference's checks in a killable process of their own, under a budget
experiment:  puzzles x configurations x repetitions, run by an executor and judged
records:     the one per-run record of the JSON and the CSV
csv_cells:   CSV cells a spreadsheet would run as formulas, neutralised
report:      summary rows, the saved JSON document, the change between two saved runs
saved:       a saved JSON document read back bounded and checked, and written so it reads back
summary_table: the summary table: its columns (fitted to the terminal), headers, key, formats
tables:      any table as aligned text, Markdown, LaTeX (booktabs), CSV or JSON
paired_table: the paired report as printed, the drift check's lines, the --fail-if-slower gate
merge:       several saved runs as one (their limits agreeing, shared labels told apart)
measures:    per puzzle and set, the wall time, CPU time or counter a picture plots
html_data:   what the interactive HTML report holds, every run in columns
scores:      PAR-K, solved within the limit, the virtual best solver
paired:      two runs pair by pair: wins, losses, ties, ratio, sign test
views:       the per-puzzle pivot table, and rows as table, Markdown, CSV or JSON
database:    the SQLite results database, written run by run
db_checks:   what each value read from a results database must be
db_views:    tables and documents from a results database
resume:      what a sweep's runs mean, and the refusal of a --resume that would change it
provenance:  versions, git commit, machine and settings saved with every run
outputs:     output paths checked before a run, files written whole
consistency_study: Simonis's study: puzzles each consistency level settles with no search
curves:      cost against a puzzle attribute, median and quartiles per configuration
tails:       survival functions and the Hill tail index of run-time distributions
batch_runs:  batch answers judged as columns, their summary, per-run records on demand
"""
