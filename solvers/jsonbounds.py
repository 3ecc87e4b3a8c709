"""JSON read with bounds, and written so that it reads back: what a saved run, a results
database's JSON column or a JSON option value may hold.

Python's ``json`` takes anything: nesting until the interpreter's recursion limit (then a
RecursionError), integers of thousands of digits (then a ValueError past 4,300), ``1e400``
(read as infinity) and the words NaN and Infinity. ``loads`` refuses each of them with one
``JsonBoundsError`` that says what was found, so a reader turns any such text into one
clear error; ``dumps`` writes non-finite floats as null, so nothing the toolkit saves is
refused when it is read again.

>>> loads('{"a": [1, 2.5, null]}')
{'a': [1, 2.5, None]}
>>> loads('[' * 70 + ']' * 70)
Traceback (most recent call last):
...
solvers.jsonbounds.JsonBoundsError: nested deeper than 64 levels
>>> loads('{"stat": 1e400}')
Traceback (most recent call last):
...
solvers.jsonbounds.JsonBoundsError: the number inf is none JSON may hold (NaN, or past about 1.8e308)
>>> dumps({"mean": float("nan"), "n": 3})
'{"mean": null, "n": 3}'
"""
from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64
"""Levels of nesting a document may have (a saved run has about six)."""
MAX_INT_DIGITS = 20
"""Digits an integer may have: every count the toolkit keeps fits 64 bits (19 digits)."""
_INT_LIMIT = 10 ** MAX_INT_DIGITS


class JsonBoundsError(ValueError):
    """JSON text that is malformed or past a bound; the message says what was found."""


def loads(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """The value of JSON text within the bounds; JsonBoundsError for anything else (about
    twice the time of ``json.loads``: one more walk over the value)."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonBoundsError(f"nested deeper than {max_depth} levels") from None
    except json.JSONDecodeError as error:
        raise JsonBoundsError(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") \
            from None
    except ValueError:  # an integer of more digits than Python converts (4,300)
        raise JsonBoundsError(f"an integer of thousands of digits (at most {MAX_INT_DIGITS})") from None
    problem = out_of_bounds(value, max_depth)
    if problem:
        raise JsonBoundsError(problem)
    return value


def out_of_bounds(value: Any, max_depth: int = MAX_DEPTH) -> str:
    """What in a decoded value is past a bound ('' when nothing): nesting deeper than
    ``max_depth``, an integer of more than MAX_INT_DIGITS digits, a NaN or an infinity
    (``1e400`` decodes as one). One walk without recursion."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is float:
            if not math.isfinite(item):
                return f"the number {item} is none JSON may hold (NaN, or past about 1.8e308)"
        elif kind is int:
            if not -_INT_LIMIT < item < _INT_LIMIT:
                return f"an integer of {len(str(abs(item))):,} digits (at most {MAX_INT_DIGITS})"
        elif kind is dict or kind is list:
            if depth > max_depth:
                return f"nested deeper than {max_depth} levels"
            children = item.values() if kind is dict else item
            stack.extend((child, depth + 1) for child in children
                         if type(child) in (dict, list, float, int))
    return ""


def dumps(value: Any, **options: Any) -> str:
    """JSON text of a value, with every non-finite float written as null (so ``loads`` takes it)."""
    return json.dumps(finite(value), allow_nan=False, **options)


def finite(value: Any) -> Any:
    """The value with every NaN or infinite float (at any depth) replaced by None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(item) for item in value]
    return value
