"""lz-string's base64 form, both ways: the text f-puzzles links carry after ``?load=``.

lz-string (Pieroxy's JavaScript library) is an LZW coder: a dictionary of strings grows as
the text is read, each code is written in as many bits as the dictionary's size needs (least
significant bit first), a new character is written literally (a marker, then 8 or 16 bits),
and the code 2 ends the stream; the base64 form packs 6 bits per character and pads with
'='. Characters are UTF-16 code units, as JavaScript sees a string, so text outside the
Basic Multilingual Plane travels as surrogate pairs and comes back whole.

>>> compress_to_base64("hello, hello")
'BYUwNmD2A0AEoUkA'
>>> decompress_from_base64(compress_to_base64('{"size":9,"grid":[]}'))
'{"size":9,"grid":[]}'
"""
from __future__ import annotations

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {char: value for value, char in enumerate(ALPHABET)}


class LZStringError(ValueError):
    """Text that is not lz-string base64 (a character outside the alphabet, a code the
    dictionary does not hold, no end mark), or that unpacks to more than the limit."""


def _units(text: str) -> list[str]:
    """The text as UTF-16 code units, one character each (lone surrogates stand for halves)."""
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(int.from_bytes(raw[i:i + 2], "little")) for i in range(0, len(raw), 2)]


def _text(units: list[str]) -> str:
    """Code units back into text (surrogate pairs joined)."""
    joined = "".join(units)
    try:
        return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        raise LZStringError("the unpacked text has a lone UTF-16 surrogate") from None


class _BitWriter:
    """Bits into base64 characters, 6 to a character, most significant first."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.value = self.filled = 0

    def write(self, value: int, bits: int) -> None:
        for _ in range(bits):  # the value's least significant bit goes first
            self.value = (self.value << 1) | (value & 1)
            value >>= 1
            self.filled += 1
            if self.filled == 6:
                self.chars.append(ALPHABET[self.value])
                self.value = self.filled = 0

    def text(self) -> str:
        """Everything written, then one more character (the last bits padded with zeros; a
        whole zero character when none are left over, as lz-string does), then '=' to a
        multiple of four characters."""
        self.chars.append(ALPHABET[self.value << (6 - self.filled)])
        packed = "".join(self.chars)
        return packed + "=" * (-len(packed) % 4)


def compress_to_base64(text: str) -> str:
    """The text packed as lz-string's compressToBase64 packs it."""
    codes: dict[str, int] = {}
    unwritten: set[str] = set()  # characters in the dictionary not yet written literally
    out = _BitWriter()
    size, bits, room = 3, 2, 2  # dictionary size, bits per code, codes left before one more bit

    def emit(phrase: str) -> None:
        nonlocal bits, room
        if phrase in unwritten:
            wide = ord(phrase) > 0xFF
            out.write(1 if wide else 0, bits)
            out.write(ord(phrase), 16 if wide else 8)
            unwritten.discard(phrase)
            room -= 1
            if room == 0:
                room, bits = 1 << bits, bits + 1
        else:
            out.write(codes[phrase], bits)
        room -= 1
        if room == 0:
            room, bits = 1 << bits, bits + 1

    phrase = ""
    for char in _units(text):
        if char not in codes:
            codes[char], size = size, size + 1
            unwritten.add(char)
        if phrase + char in codes:
            phrase += char
            continue
        emit(phrase)
        codes[phrase + char], size = size, size + 1
        phrase = char
    if phrase:
        emit(phrase)
    out.write(2, bits)
    return out.text()


class _BitReader:
    """Bits out of base64 characters, as _BitWriter put them in."""

    def __init__(self, packed: str) -> None:
        self.packed = packed.rstrip("=")
        self.index, self.value, self.mask = 0, 0, 0

    def read(self, bits: int) -> int:
        result = 0
        for place in range(bits):
            if self.mask == 0:
                if self.index >= len(self.packed):
                    raise LZStringError("the text ends before its end mark")
                char = self.packed[self.index]
                if char not in _VALUE:
                    raise LZStringError(f"character {self.index + 1} ({char!r}) is not base64")
                self.value, self.mask, self.index = _VALUE[char], 32, self.index + 1
            if self.value & self.mask:
                result |= 1 << place
            self.mask >>= 1
        return result


def decompress_from_base64(packed: str, *, limit: int = 1 << 24) -> str:
    """The text lz-string's compressToBase64 packed; LZStringError when ``packed`` is not
    such a text or unpacks to more than ``limit`` characters (code units)."""
    reader = _BitReader(packed)
    entries: list[str] = ["", "", ""]  # codes 0, 1 and 2 are the markers
    bits, room = 3, 4

    def literal(marker: int) -> str | None:
        """A character written literally after marker 0 (8 bits) or 1 (16); None for the end mark."""
        return None if marker == 2 else chr(reader.read(16 if marker else 8))

    marker = reader.read(2)
    if marker == 3:
        raise LZStringError("the text does not start with a character or the end mark")
    first = literal(marker)
    if first is None:  # the end mark: the empty text
        return ""
    entries.append(first)
    previous, units, length = first, [first], 1

    while True:
        code = reader.read(bits)
        if code <= 2:
            char = literal(code)
            if char is None:
                return _text(units)
            entries.append(char)
            code = len(entries) - 1
            room -= 1
            if room == 0:
                room, bits = 1 << bits, bits + 1
        if code < len(entries):
            entry = entries[code]
        elif code == len(entries):
            entry = previous + previous[0]
        else:
            raise LZStringError(f"code {code} is past the dictionary ({len(entries)} entries)")
        units.append(entry)
        length += len(entry)
        if length > limit:
            raise LZStringError(f"the text unpacks to more than {limit:,} characters")
        entries.append(previous + entry[0])
        previous = entry
        room -= 1
        if room == 0:
            room, bits = 1 << bits, bits + 1
