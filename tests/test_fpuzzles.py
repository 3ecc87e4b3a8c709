"""The f-puzzles format: documents, links and files read into the shared model and written
back; unsupported constraints and malformed documents are located errors, never dropped."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from models import Cage, Geometry, Puzzle, read_puzzles, read_text
from models.errors import (
    ConstraintError,
    DocumentError,
    DuplicateGivenError,
    EncodingError,
    UnsupportedConstraintError,
)
from models.fpuzzles import (
    read_document,
    read_link,
    to_fpuzzles,
    to_fpuzzles_json,
    to_fpuzzles_link,
)

from .conftest import ROOT

SUDOKU9 = tuple((r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9))
JIGSAW5 = (1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 5, 3, 4, 4, 4, 5, 5, 5, 5, 4)

PUZZLES = {
    "sudoku-9": Puzzle(Geometry.for_size(9), tuple(v if i % 4 == 0 else 0 for i, v in enumerate(SUDOKU9))),
    "latin-5": Puzzle(Geometry.latin_square(5), (1,) + (0,) * 24),
    "latin-9": Puzzle(Geometry.latin_square(9), (0,) * 81),
    "jigsaw-5": Puzzle(Geometry.latin_square(5), (0,) * 25, regions=JIGSAW5),
    "jigsaw-x-6": Puzzle(Geometry.for_size(6), (0,) * 36, diagonals=True,
                         regions=tuple(cell // 6 + 1 if cell % 6 else (cell // 6 + 1) % 6 + 1
                                       for cell in range(36))),
    "killer-4": Puzzle(Geometry.for_size(4), (0,) * 15 + (2,),
                       cages=(Cage((0, 1), 3), Cage((2, 3, 7), 9), Cage((4, 8)))),
    "rules-9": Puzzle(Geometry.for_size(9), (0,) * 81,
                      rules=("anti-diagonal", "antiknight", "antiking", "disjoint-groups"),
                      extra_regions=((0, 10, 20), (80, 70))),
}


def doc(size: int = 4, **keys) -> dict:
    return {"size": size, "grid": [[{} for _ in range(size)] for _ in range(size)], **keys}


@pytest.mark.parametrize("name", PUZZLES)
def test_a_puzzle_survives_a_round_trip_through_a_document(name: str) -> None:
    puzzle = PUZZLES[name]
    assert read_document(json.loads(to_fpuzzles_json(puzzle))) == puzzle


@pytest.mark.parametrize("name", PUZZLES)
def test_a_puzzle_survives_a_round_trip_through_a_link(name: str) -> None:
    link = to_fpuzzles_link(PUZZLES[name])
    assert link.startswith("https://www.f-puzzles.com/?load=")
    assert read_link(link) == PUZZLES[name]
    assert read_text(link).puzzles == [PUZZLES[name]]


def test_the_writer_uses_f_puzzles_names() -> None:
    written = to_fpuzzles(PUZZLES["rules-9"])
    assert (written["diagonal+"], written["antiknight"], written["antiking"], written["disjointgroups"]) \
        == (True, True, True, True) and "diagonal-" not in written
    assert written["extraregion"] == [{"cells": ["R1C1", "R2C2", "R3C3"]}, {"cells": ["R9C9", "R8C8"]}]
    killer = to_fpuzzles(PUZZLES["killer-4"])
    assert killer["killercage"][0] == {"cells": ["R1C1", "R1C2"], "value": "3"}
    assert killer["killercage"][2] == {"cells": ["R2C1", "R3C1"]}
    assert killer["grid"][3][3] == {"value": 2, "given": True}


def test_a_setters_document_reads_its_rules_and_skips_decoration() -> None:
    setter = doc(4, title="Tiny", author="me", ruleset="Normal killer rules.", highlightConflicts=True,
                 killercage=[{"cells": ["R1C1", "R1C2"], "value": "3", "outlineC": "#000000"}],
                 cage=[{"cells": ["R4C3", "R4C4"], "value": "", "fontC": "#000000"}],
                 thermometer=[], nonconsecutive=False, **{"diagonal+": True})
    setter["grid"][0][2] = {"value": 4, "given": True, "c": "#FF0000"}
    setter["grid"][1][1] = {"value": 3, "centerPencilMarks": [1, 3]}  # a player's entry, not a given
    puzzle = read_document(setter)
    assert puzzle.givens == (0, 0, 4) + (0,) * 13
    assert puzzle.cages == (Cage((0, 1), 3), Cage((14, 15)))
    assert puzzle.rules == ("anti-diagonal",) and puzzle.variant == "anti-diagonal-killer"


@pytest.mark.parametrize("size, regions, variant", [
    (5, None, "latin"),                                     # no boxes fit: f-puzzles' rows
    (9, "null", "latin"),                                   # every cell in no region
    (6, "rows", "latin"),                                   # the rows as regions
    (4, "boxes-renumbered", "standard"),                    # the boxes, numbered otherwise
    (4, "columns", "jigsaw"),
])
def test_regions_choose_boxes_a_latin_square_or_a_jigsaw(size: int, regions: str | None,
                                                         variant: str) -> None:
    document = doc(size)
    for r in range(size):
        for c in range(size):
            number = {None: None, "null": None, "rows": r, "columns": c,
                      "boxes-renumbered": 3 - ((r // 2) * 2 + c // 2)}[regions]
            if regions is not None:
                document["grid"][r][c]["region"] = number
    assert read_document(document).variant == variant


@pytest.mark.parametrize("key, value", [
    ("thermometer", [{"lines": [["R1C1", "R1C2"]]}]), ("arrow", [{"cells": ["R1C1"], "lines": []}]),
    ("nonconsecutive", True), ("negative", ["ratio"]), ("text", [{"cells": ["R1C1"], "value": "x"}]),
    ("littlekillersum", [{"cell": "R0C1", "cells": ["R1C1"], "direction": "DR", "value": "3"}]),
])
def test_an_unsupported_constraint_is_named_not_dropped(key: str, value: object) -> None:
    with pytest.raises(UnsupportedConstraintError, match=f"the f-puzzles constraint '{key}' is not supported"):
        read_document(doc(4, **{key: value}))


def test_given_pencil_marks_and_unknown_cage_keys_are_named() -> None:
    marked = doc(4)
    marked["grid"][2][1]["givenPencilMarks"] = [1, 2]
    with pytest.raises(UnsupportedConstraintError, match=r"grid\[2\]\[1\]\.givenPencilMarks: given pencil"):
        read_document(marked)
    with pytest.raises(UnsupportedConstraintError, match=r"killercage\[0\]\.sum"):
        read_document(doc(4, killercage=[{"cells": ["R1C1"], "sum": 3}]))


def _mutated(change) -> dict:
    document = doc(4)
    change(document)
    return document


MALFORMED = [
    ([[1, 2]], DocumentError, "document [0]: an f-puzzles document is a JSON object, not a list"),
    ({"grid": []}, DocumentError, "size: expected a whole number, found nothing"),
    (doc(4) | {"size": "4"}, DocumentError, "size: expected a whole number, found a string"),
    (doc(4) | {"size": 1}, DocumentError, "size: 1 is outside 2-64"),
    (doc(4) | {"grid": [[{}] * 4] * 3}, DocumentError, "grid: expected 4 rows of 4 cells, found 3 rows"),
    (_mutated(lambda d: d["grid"][2].pop()), DocumentError, "grid[2]: expected 4 cells, found 3 cells"),
    (_mutated(lambda d: d["grid"][1].__setitem__(0, 7)), DocumentError, "grid[1][0]: expected an object"),
    (_mutated(lambda d: d["grid"][0][3].update(value=5, given=True)), DocumentError,
     "grid[0][3].value: a given is a whole number 1-4, found 5"),
    (_mutated(lambda d: d["grid"][0][3].update(value=2, given="yes")), DocumentError,
     "grid[0][3].given: expected true or false, found a string"),
    (_mutated(lambda d: d["grid"][3][3].update(region=4)), DocumentError,
     "grid[3][3].region: expected a region number 0-3 or null, found 4"),
    (_mutated(lambda d: d["grid"][3][3].update(region=None)), DocumentError,
     "grid[3][3].region: null leaves the cell outside every region"),
    (doc(4, killercage={"cells": []}), DocumentError, "killercage: expected a list, found an object"),
    (doc(4, killercage=[{"value": "3"}]), DocumentError, "killercage[0].cells: expected a list of cell names"),
    (doc(4, cage=[{"cells": ["R1C1", "R5C1"]}]), DocumentError, "cage[0].cells[1]: cell 'R5C1' is outside"),
    (doc(4, killercage=[{"cells": ["R1C1"], "value": "x"}]), DocumentError,
     "killercage[0].value: a cage total is a whole number, found 'x'"),
    (doc(4, killercage=[{"cells": ["R1C1"]}], cage=[{"cells": ["R1C2", "R1C3"], "value": 0}]),
     ConstraintError, "cage[0]: cage 2 total 0 is not a positive whole number"),
    (doc(4, extraregion=[{"cells": ["R1C1"]}, {"cells": ["R1C1", "R2C2", "R1C1"]}]), ConstraintError,
     "extraregion[1]: extra region 2 names a cell twice"),
    (doc(4, **{"diagonal+": "yes"}), DocumentError, "diagonal+: expected true or false, found a string"),
    (doc(4, disjointgroups=True, grid=[[{"region": None}] * 4] * 4), ConstraintError, "disjoint-groups needs boxes"),
]


@pytest.mark.parametrize("document, error, words", MALFORMED, ids=[m[2][:30] for m in MALFORMED])
def test_a_malformed_document_is_a_located_error_naming_its_key(document: object, error: type,
                                                                  words: str, tmp_path: Path) -> None:
    path = tmp_path / "puzzles.json"
    good = to_fpuzzles_json(PUZZLES["killer-4"])
    path.write_text(good + "\n" + json.dumps(document) + "\n" + good + "\n")
    batch = read_puzzles(path)
    assert batch.puzzles == [PUZZLES["killer-4"]] * 2
    assert len(batch.errors) == 1 and isinstance(batch.errors[0], error)
    assert str(batch.errors[0]) == f"{path}, line 2: {words}" or \
        str(batch.errors[0]).startswith(f"{path}, line 2: {words}")


def test_a_pretty_printed_file_of_documents_locates_each_one(tmp_path: Path) -> None:
    pretty = json.dumps(to_fpuzzles(PUZZLES["latin-5"]), indent=1)
    lines = pretty.count("\n") + 1
    bad = copy.deepcopy(to_fpuzzles(PUZZLES["latin-5"]))
    bad["grid"][0][4].update(value=1, given=True)
    bad_text = json.dumps(bad, indent=1)
    bad_lines = bad_text.count("\n") + 1
    path = tmp_path / "set.json"
    path.write_text(pretty + "\n" + bad_text + "\n{ broken\n" + pretty + "\n")
    batch = read_puzzles(path)
    assert [p.source.line for p in batch.puzzles] == [1, lines + bad_lines + 2]
    assert [(type(e), e.line) for e in batch.errors] == [(DuplicateGivenError, lines + 1),
                                                          (DocumentError, lines + bad_lines + 1)]
    assert "duplicate 1 in row 1" in str(batch.errors[0])


def test_a_json_list_of_documents_is_read_in_order(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text(json.dumps([to_fpuzzles(PUZZLES["killer-4"]), to_fpuzzles(PUZZLES["latin-5"]), 3]))
    batch = read_puzzles(path)
    assert batch.puzzles == [PUZZLES["killer-4"], PUZZLES["latin-5"]]
    assert "line 1: document [2]: an f-puzzles document is a JSON object, not a number" in str(batch.errors[0])


@pytest.mark.parametrize("link, words", [
    ("https://www.f-puzzles.com/?load=", "is empty"),
    ("https://www.f-puzzles.com/?load=!!!not-base64!!!", "is not lz-string base64 of a document"),
    ("https://www.f-puzzles.com/?load=" + "A" * 20_000, "longer than 16,384 characters"),
    ("https://www.f-puzzles.com/?load=N4IgzglgXgpiBcIDCAbAhgZwQAgMoBMIBjDMCDVEAXyA", "not JSON"),
])
def test_a_hostile_link_is_a_located_error(link: str, words: str) -> None:
    batch = read_text("1...............\n" + link + "\n", name="links.txt")
    assert len(batch.puzzles) == 1 and len(batch.errors) == 1
    assert isinstance(batch.errors[0], DocumentError) and words in str(batch.errors[0])
    assert str(batch.errors[0]).startswith("links.txt, line 2: ")


def test_bad_bytes_and_stray_text_in_a_json_file_are_located(tmp_path: Path) -> None:
    path = tmp_path / "bytes.json"
    path.write_bytes(b'{"size": 4,\n "title": "\xff"}')
    assert [(type(e), e.line) for e in read_puzzles(path).errors] == [(EncodingError, 2)]
    path.write_text(to_fpuzzles_json(PUZZLES["latin-5"]) + "\nhello there\n")
    batch = read_puzzles(path)
    assert len(batch.puzzles) == 1 and "expected an f-puzzles document" in str(batch.errors[0])


@pytest.mark.parametrize("text, name", [("[" * 100_000 + "]" * 100_000, "deep.json"),
                                        ("1...............\n" + '{"a":' * 10_000, "deep.txt"),
                                        ("{\"a\": " * 5_000 + "1" + "}" * 5_000 + "\n1...............", "deep2.txt")])
def test_json_nested_past_the_recursion_limit_is_a_located_error(text: str, name: str) -> None:
    batch = read_text(text, name=name)
    assert batch.errors and all(isinstance(e, DocumentError) for e in batch.errors)
    assert "nested deeper than Python's recursion limit" in str(batch.errors[0])


def test_lines_of_documents_and_links_mix_with_line_puzzles() -> None:
    text = "\n".join([to_fpuzzles_json(PUZZLES["killer-4"]), "1" + "." * 15,
                      to_fpuzzles_link(PUZZLES["jigsaw-5"])])
    batch = read_text(text)
    assert not batch.errors and batch.puzzles[0] == PUZZLES["killer-4"] and batch.puzzles[2] == PUZZLES["jigsaw-5"]


@pytest.mark.slow
def test_the_command_line_solves_an_f_puzzles_file_and_rejects_a_bad_one(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(to_fpuzzles_json(PUZZLES["latin-5"]) + "\n")
    bad.write_text(json.dumps(doc(4, arrow=[{"cells": ["R1C1"], "lines": [["R1C1", "R1C2"]]}])) + "\n")
    ran = subprocess.run([sys.executable, "compare.py", "solve", str(good), "--format", "line"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    solution = [line for line in ran.stdout.splitlines() if not line.startswith("#")]
    assert solution[0].split()[1] == "variant=latin" and len(solution[0].split()[0]) == 25
    ran = subprocess.run([sys.executable, "compare.py", "solve", str(bad)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 2
    assert f"{bad}, line 1: arrow: the f-puzzles constraint 'arrow' is not supported" in ran.stderr
