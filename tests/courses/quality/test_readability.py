"""Readability per lesson, in the lesson's language, computed offline."""

import itertools
import json
import subprocess
import sys

import pytest

from courses.quality import readability
from tests.support.quality_documents import HARD_TO_READ, PLAIN_LESSON

LANGUAGES = ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]

SYLLABLES = {
    "en-US": {
        "the": 1,
        "course": 1,
        "make": 1,
        "people": 2,
        "example": 3,
        "principles": 3,
        "definition": 4,
        "troubleshooting": 4,
    },
    "pt-BR": {"curso": 2, "lição": 2, "exemplo": 3, "prática": 3, "compreensão": 3, "objetivo": 4},
    "es-ES": {"curso": 2, "lección": 2, "ejemplo": 3, "práctica": 3, "errores": 3, "objetivo": 4},
    "fr-FR": {"table": 1, "erreur": 2, "exemple": 2, "leçon": 2, "objectif": 3, "compréhension": 4},
    "de-DE": {"Ziel": 1, "Arbeit": 2, "Beispiel": 2, "erklären": 3, "Prinzipien": 4, "Fehlerbehebung": 5},
}


@pytest.mark.parametrize("language_id", LANGUAGES)
def test_syllables_are_counted_in_the_language(language_id):
    counted = {word: readability.syllables(word, language_id) for word in SYLLABLES[language_id]}

    assert counted == SYLLABLES[language_id]


@pytest.mark.parametrize(
    "language_id, formula",
    [
        ("en-US", "flesch"),
        ("pt-BR", "flesch-martins"),
        ("es-ES", "fernandez-huerta"),
        ("fr-FR", "kandel-moles"),
        ("de-DE", "amstad"),
    ],
)
def test_each_language_has_its_own_formula_and_plain_text_reads_easier_than_dense_text(language_id, formula):
    plain = readability.readability(PLAIN_LESSON[language_id], language_id)
    dense = readability.readability(HARD_TO_READ[language_id], language_id)

    assert plain.formula == dense.formula == formula
    assert plain.score >= 60 and plain.band in ("standard", "fairly-easy", "easy", "very-easy")
    assert dense.score < 30 and dense.band == "very-difficult"
    assert (plain.sentences, dense.sentences) == (3, 1)


def test_the_english_formula_is_fleschs():
    text = "Reading takes practice. Writing takes patience and time."

    measured = readability.readability(text, "en-US")

    # 8 words, 2 sentences, 12 syllables: read-ing takes prac-tice. writ-ing takes pa-tience and time.
    assert (measured.words, measured.sentences, measured.syllables_per_word) == (8, 2, 1.5)
    assert measured.score == round(206.835 - 1.015 * 4 - 84.6 * 1.5, 1) == 75.9
    assert measured.band == "fairly-easy"


def test_markdown_is_read_as_text_without_code_or_link_addresses():
    markdown = (
        "### A heading\n\n"
        "Read [the guide](https://example.com/a-very-long-address-with-many-words) first.\n\n"
        "- one item\n- another item\n\n"
        "```sql\nSELECT extraordinarily_complicated_column FROM incomprehensible_table;\n```\n\n"
        "Use `SELECT` here."
    )

    measured = readability.readability(markdown, "en-US")

    # "A heading" | "Read the guide first." | "one item" | "another item" | "Use here."
    assert (measured.words, measured.sentences) == (12, 5)


def test_a_lesson_of_code_alone_has_no_readability():
    assert readability.readability("```python\nprint('hello')\n```", "en-US") is None


def test_readability_works_with_the_network_off_and_no_downloaded_data(tmp_path):
    # A fresh interpreter whose sockets refuse to connect and whose home is empty: nothing can be
    # downloaded or found in a cache (textstat would fetch the CMU dictionary for English here).
    script = f"""
import json, socket, sys
def refuse(*args, **kwargs):
    raise OSError("the network is off in this test")
socket.socket.connect = refuse
socket.create_connection = refuse
socket.getaddrinfo = refuse
from courses.quality import readability
texts = {json.dumps(PLAIN_LESSON)}
scores = {{language: readability.readability(text, language).score for language, text in texts.items()}}
print(json.dumps({{"scores": scores, "nltk": "nltk" in sys.modules}}))
"""

    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "HOME": str(tmp_path),
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(__import__("pathlib").Path.cwd()),
        },
        cwd=str(tmp_path),
    )

    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["nltk"] is False
    assert answer["scores"] == {
        language: readability.readability(text, language).score for language, text in PLAIN_LESSON.items()
    }


def test_each_table_cell_is_read_as_a_block():
    table = (
        "| Term | Meaning |\n| --- | --- |\n"
        "| cache | a store kept close |\n| index | a sorted list of keys |\n"
    )

    measured = readability.readability(table, "en-US")

    # "Term" | "Meaning" | "cache" | "a store kept close" | "index" | "a sorted list of keys"
    assert (measured.words, measured.sentences) == (13, 6)


def test_syllables_are_counted_over_a_bounded_sample_of_a_long_lesson():
    syllable = ["ba", "ke", "lo", "mi", "nu", "pa", "re", "si", "to", "vu"]
    never_met = ["".join(parts) for parts in itertools.product(syllable, repeat=4)]  # 10,000 words
    lesson = " ".join(never_met) + "."
    readability.syllables.cache_clear()

    measured = readability.readability(lesson, "en-US")

    assert measured.words == 10_000
    assert readability.syllables.cache_info().misses <= readability.SYLLABLE_SAMPLE_WORDS
    assert 3.5 <= measured.syllables_per_word <= 4.5
