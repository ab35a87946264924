"""
Readability of a lesson in its language: the reading-ease formula of the Flesch family made for
that language, on a 0-100 scale where higher is easier.

| language | formula |
| --- | --- |
| en-US | Flesch (1948): 206.835 − 1.015 × words per sentence − 84.6 × syllables per word |
| pt-BR | Flesch adapted by Martins et al. (1996): 248.835 − 1.015 × WPS − 84.6 × SPW |
| es-ES | Fernández Huerta (1959): 206.84 − 1.02 × WPS − 60 × SPW |
| fr-FR | Kandel and Moles (1958): 207 − 1.015 × WPS − 73.6 × SPW |
| de-DE | Amstad (1978): 180 − WPS − 58.5 × SPW |

These are the formulas textstat uses. textstat counts English syllables with the CMU dictionary,
which it downloads at run time; here every language counts them offline: the larger of the
hyphenation points of pyphen's dictionaries (shipped inside the package) plus one, and the groups
of vowels in the word (less a silent final "e" in English and French). Markdown is read as text:
code, links' addresses and markup are left out; every heading, list item and paragraph ends a
sentence.
"""

import functools
import math
import re
from dataclasses import dataclass

import pyphen
from markdown_it import MarkdownIt

FORMULAS = {
    # language: (name, base, per word per sentence, per syllable per word)
    "en-US": ("flesch", 206.835, 1.015, 84.6),
    "pt-BR": ("flesch-martins", 248.835, 1.015, 84.6),
    "es-ES": ("fernandez-huerta", 206.84, 1.02, 60.0),
    "fr-FR": ("kandel-moles", 207.0, 1.015, 73.6),
    "de-DE": ("amstad", 180.0, 1.0, 58.5),
}
_PYPHEN_LANGUAGE = {"en-US": "en_US", "pt-BR": "pt_BR", "es-ES": "es", "fr-FR": "fr", "de-DE": "de_DE"}
_VOWELS = {
    "en-US": "aeiouy",
    "pt-BR": "aeiouáâãàéêíóôõúü",
    "es-ES": "aeiouáéíóúü",
    "fr-FR": "aeiouyàâäéèêëîïôöùûüœæ",
    "de-DE": "aeiouyäöü",
}
# The usual bands of the Flesch scale, from the easiest: (lowest score, band).
BANDS = (
    (90, "very-easy"),
    (80, "easy"),
    (70, "fairly-easy"),
    (60, "standard"),
    (50, "fairly-difficult"),
    (30, "difficult"),
    (float("-inf"), "very-difficult"),
)

_WORD = re.compile(r"[^\W\d_]+(?:[’'-][^\W\d_]+)*")
_SENTENCE_END = re.compile(r"[.!?…]+(?=\s|$)")
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")  # as courses.markdown reads lessons

# Syllables are counted over at most this many words of a lesson, evenly spread: an average that a
# sample this large gives to a few hundredths, at a bounded cost (hyphenating a word it has not met
# costs tens of microseconds, and a lesson may hold 20,000 characters of words never met).
SYLLABLE_SAMPLE_WORDS = 600


@dataclass(frozen=True)
class Readability:
    formula: str
    score: float  # reading ease, 0-100 (the formula's value kept within that range)
    band: str
    words: int
    sentences: int
    words_per_sentence: float
    syllables_per_word: float


def readability(markdown: str, language: str) -> Readability | None:
    """The reading ease of a Markdown text in the language; None when it has no words to read."""
    sentences = 0
    words: list[str] = []
    for block in _text_blocks(markdown):
        block_words = _WORD.findall(block)
        if not block_words:
            continue
        words.extend(block_words)
        # A block ends a sentence even without a full stop at its end (a heading, a list item).
        text = block.strip()
        ends = len(_SENTENCE_END.findall(text))
        sentences += ends if _SENTENCE_END.search(text[-1:]) else ends + 1
    if not words:
        return None
    name, base, per_sentence_length, per_syllable = FORMULAS[language]
    words_per_sentence = len(words) / sentences
    sample = words[:: math.ceil(len(words) / SYLLABLE_SAMPLE_WORDS)]
    syllables_per_word = sum(syllables(word, language) for word in sample) / len(sample)
    raw = base - per_sentence_length * words_per_sentence - per_syllable * syllables_per_word
    score = round(min(100.0, max(0.0, raw)), 1)
    return Readability(
        formula=name,
        score=score,
        band=next(band for lowest, band in BANDS if score >= lowest),
        words=len(words),
        sentences=sentences,
        words_per_sentence=round(words_per_sentence, 1),
        syllables_per_word=round(syllables_per_word, 2),
    )


@functools.lru_cache(maxsize=50_000)
def syllables(word: str, language: str) -> int:
    """Syllables in one word: hyphenation points plus one, or its vowel groups if that is more."""
    word = word.casefold()
    hyphenated = len(_hyphenator(language).positions(word)) + 1
    vowels = len(re.findall(f"[{_VOWELS[language]}]+", word))
    if language in ("en-US", "fr-FR") and vowels > 1 and re.search(r"[^aeiouy]es?$", word):
        if not (language == "en-US" and re.search(r"[^aeiouy]le$", word)):
            vowels -= 1  # a silent final e (English "make", French "table", "tables")
    return max(hyphenated, vowels, 1)


@functools.cache
def _hyphenator(language: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=_PYPHEN_LANGUAGE[language])


def _text_blocks(markdown: str) -> list[str]:
    """The text of each paragraph, heading, list item and table cell, without code or markup."""
    blocks = []
    for token in _MARKDOWN.parse(markdown):
        if token.type != "inline":
            continue
        parts = []
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                parts.append(child.content if child.type == "text" else " ")
            elif child.type in ("softbreak", "hardbreak"):
                parts.append(" ")
        blocks.append("".join(parts))
    return blocks
