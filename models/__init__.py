"""The shared Sudoku model: geometry, puzzles, formats, the constraint model and the checker.

>>> from models import parse_puzzle, Model, verify
>>> p = parse_puzzle("12..34....43..21")
>>> (p.geometry.label(), p.num_givens, len(Model.from_puzzle(p).groups))
('4x4', 8, 12)
"""
from .checker import Verdict, verify
from .drawing import grid_svg
from .errors import (
                     BadCharacterError,
                     CellCountError,
                     ConstraintError,
                     DocumentError,
                     DuplicateGivenError,
                     EncodingError,
                     LayoutError,
                     LineLengthError,
                     PuzzleError,
                     RegionError,
                     SizeError,
                     UnreadablePuzzleError,
                     UnsupportedConstraintError,
                     ValueRangeError,
)
from .formats import (
                     Batch,
                     check_duplicates,
                     count_puzzles,
                     iter_puzzles,
                     parse_puzzle,
                     read_puzzles,
                     read_stream,
                     read_text,
                     to_grid,
                     to_line,
                     to_pretty,
                     to_record,
)
from .fpuzzles import read_document, read_link, to_fpuzzles, to_fpuzzles_json, to_fpuzzles_link
from .geometry import Geometry, GeometryError, valid_size
from .model import Duplicate, Group, Model, as_model, find_duplicate
from .puzzle import RULES, Cage, Grid, Puzzle, Source

__all__ = [
    "BadCharacterError", "Batch", "Cage", "CellCountError", "ConstraintError", "DocumentError",
    "Duplicate", "DuplicateGivenError", "RULES", "UnreadablePuzzleError", "UnsupportedConstraintError", "read_document",
    "read_link", "to_fpuzzles", "to_fpuzzles_json", "to_fpuzzles_link",
    "EncodingError", "Geometry", "LayoutError", "LineLengthError", "read_stream",
    "GeometryError", "Grid", "Group", "Model", "Puzzle", "PuzzleError", "RegionError",
    "SizeError", "Source", "ValueRangeError", "Verdict", "as_model", "check_duplicates", "count_puzzles",
    "find_duplicate", "grid_svg", "iter_puzzles", "parse_puzzle", "read_puzzles", "read_text", "to_grid", "to_line",
    "to_pretty", "to_record", "valid_size", "verify",
]
