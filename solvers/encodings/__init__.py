"""What several backends or exports share: CNF numbering and clause builders, DIMACS in and out,
and the domains left by the givens."""
