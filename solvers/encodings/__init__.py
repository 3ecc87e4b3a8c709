"""What several backends or exports share: CNF numbering and clause builders, DIMACS in and out,
the domains left by the givens, and the exact-cover column layout."""
