"""A seat's name as the table shows it: cut and counted by what a person sees as one
character (a grapheme: a family emoji of seven code points, a flag, a letter with its
accents), so that cutting never breaks one apart; printable, single spaces, no bidi or
other invisible controls.

Python's standard library has no grapheme segmentation; this follows Unicode's extended
grapheme clusters for what names hold (combining marks, variation selectors, emoji
modifiers, zero-width joiner sequences, tag sequences, regional-indicator pairs), which is
what the browser's ``Intl.Segmenter`` (the name fields) counts too.
"""

from __future__ import annotations

import unicodedata

NAME_LIMIT = 24
"""The most characters (graphemes) a name shows."""
ZWJ = "\u200d"


def _extends(ch: str) -> bool:
    """A code point that belongs to the grapheme before it."""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or 0xFE00 <= code <= 0xFE0F  # variation selectors (emoji presentation)
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # tags (subdivision flags)
        or ch == ZWJ
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def graphemes(text: str) -> list[str]:
    """``text`` split into the characters a person sees."""
    out: list[str] = []
    joined = False  # the last code point was a zero-width joiner: the next one joins
    for ch in text:
        if out and (joined or _extends(ch)):
            out[-1] += ch
        elif out and _regional(ch) and len(out[-1]) == 1 and _regional(out[-1]):
            out[-1] += ch  # the second half of a flag
        else:
            out.append(ch)
        joined = ch == ZWJ
    return out


def _shown(cluster: str) -> str:
    """A grapheme as a name keeps it: nothing when its first code point is not printable
    (a control, a bidi override, a lone joiner); else without invisible format characters
    other than those emoji sequences are made of."""
    if not cluster[0].isprintable() or _extends(cluster[0]):
        return ""
    return "".join(
        ch for ch in cluster if ch.isprintable() or ch == ZWJ or 0xE0020 <= ord(ch) <= 0xE007F
    )


def clean_name(raw: object, fallback: str, limit: int = NAME_LIMIT) -> str:
    """A seat's name as shown: whole graphemes, printable, single spaces, at most ``limit``;
    ``fallback`` when nothing is left."""
    if not isinstance(raw, str):
        return fallback
    words = " ".join(raw.split())
    kept: list[str] = []
    for cluster in graphemes(words):
        shown = _shown(cluster)
        if not shown or (shown == " " and (not kept or kept[-1] == " ")):
            continue
        kept.append(shown)
        if len(kept) == limit:
            break
    return "".join(kept).strip() or fallback
