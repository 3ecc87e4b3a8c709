"""Text that goes into a comment of a written model (MiniZinc, ASP): one line, printable.

A puzzle's file name is the user's, and a newline in it would end the comment and put the
rest of the name into the model as code; every control character becomes a '?'.

>>> comment_text("puzzles/a.txt, line 3")
'puzzles/a.txt, line 3'
>>> comment_text("evil\\nconstraint false;")
'evil?constraint false;'
"""
from __future__ import annotations

MAX_COMMENT = 300
"""Characters kept of one comment (a longer file name is cut, with '...')."""


def comment_text(text: str) -> str:
    """``text`` on one line of printable characters, at most MAX_COMMENT of them."""
    line = "".join(c if c.isprintable() else "?" for c in text)
    return line if len(line) <= MAX_COMMENT else line[:MAX_COMMENT - 3] + "..."
