"""
The language a source is written in, told by PostgreSQL's own stop-word lists: the language whose
stop words ("the", "und", "que", ...) make up the largest share of the text is the one, when that
share is large enough to be more than chance. Passages are then indexed with that language's text
search configuration (stemming, stop words); otherwise with `simple`, which works for any language.
"""

import collections
import dataclasses
import functools
import re

from django.db import connection

# ISO 639-1 code -> PostgreSQL text search configuration (its Snowball dictionary is `<name>_stem`).
CONFIGS = {
    "en": "english", "fr": "french", "de": "german", "es": "spanish", "pt": "portuguese",
    "it": "italian", "nl": "dutch", "sv": "swedish", "da": "danish", "no": "norwegian",
    "fi": "finnish", "ru": "russian", "tr": "turkish", "hu": "hungarian", "ro": "romanian",
}
SIMPLE = "simple"
SAMPLE_WORDS = 5000
# Below this share of stop words, no language is claimed.
MIN_SHARE = 0.12
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@dataclasses.dataclass(frozen=True)
class Detected:
    code: str  # "" when not told apart
    config: str


def detect(text: str) -> Detected:
    """The language of `text`, and the text search configuration to index it with."""
    words = [word.lower() for word in _WORD.findall(text[:200_000])][:SAMPLE_WORDS]
    available = installed_configs()
    if not words or not available:
        return Detected(code="", config=SIMPLE)
    counts = collections.Counter(words)
    distinct = list(counts)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT config, array_agg(word)
            FROM unnest(%s::text[]) AS word, unnest(%s::text[]) AS config
            WHERE ts_lexize((config || '_stem')::regdictionary, word) = '{}'
            GROUP BY config
            """,
            [distinct, list(available.values())],
        )
        stop_words = {config: words_found for config, words_found in cursor.fetchall()}
    if not stop_words:
        return Detected(code="", config=SIMPLE)
    scores = {config: sum(counts[word] for word in found) for config, found in stop_words.items()}
    config = max(scores, key=lambda name: (scores[name], name))
    if scores[config] < MIN_SHARE * len(words):
        return Detected(code="", config=SIMPLE)
    code = next(code for code, name in available.items() if name == config)
    return Detected(code=code, config=config)


@functools.cache
def installed_configs() -> dict[str, str]:
    """The configurations of CONFIGS this PostgreSQL has, with a Snowball dictionary of the same name."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT cfgname FROM pg_ts_config WHERE cfgname = ANY(%s) "
            "AND cfgname || '_stem' IN (SELECT dictname FROM pg_ts_dict)",
            [list(CONFIGS.values())],
        )
        present = {row[0] for row in cursor.fetchall()}
    return {code: name for code, name in CONFIGS.items() if name in present}
