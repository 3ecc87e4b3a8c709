"""models/lz_string.py: lz-string's base64 form, as f-puzzles links carry it."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models.lz_string import LZStringError, compress_to_base64, decompress_from_base64

# (text, what lz-string's own compressToBase64 gives for it), read off the reference library
KNOWN = [
    ('{"size":9,"grid":[[{"value":5}]]}', "N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BWAXwF0G6g==="),
    ("Latin 中文 é", "DIQwLglgdgBItHKHDTGBLoA="),
    ("a" * 39 + "b", "IY18ZWgRkA=="),
    ("", "Q==="),
]


@pytest.mark.parametrize(("text", "packed"), KNOWN, ids=["json", "wide-characters", "repeats", "empty"])
def test_packs_as_lz_string_does_and_unpacks_back(text: str, packed: str) -> None:
    assert compress_to_base64(text) == packed
    assert decompress_from_base64(packed) == text


@given(st.text(max_size=200))
def test_any_text_comes_back_whole_astral_characters_included(text: str) -> None:
    assert decompress_from_base64(compress_to_base64(text)) == text


@pytest.mark.parametrize(("packed", "why"), [
    ("N4Ig*glg", "not base64"), ("N4IgzglgXg", "ends before its end mark"),
    ("////", "does not start"), ("BYUwNmD2A0AE////", "past the dictionary")])
def test_garbage_is_an_lz_string_error_saying_what(packed: str, why: str) -> None:
    with pytest.raises(LZStringError, match=why):
        decompress_from_base64(packed)


def test_a_text_that_unpacks_past_the_limit_is_refused() -> None:
    with pytest.raises(LZStringError, match="more than 100 characters"):
        decompress_from_base64(compress_to_base64("ab" * 200), limit=100)
