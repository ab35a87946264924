"""
Grammatical cues between a question's stem and its options, per course language: a stem that ends
with an article fits some options and not others, and a test-wise learner rules out the options it
does not fit.

- English: "a" before a vowel sound, "an" before a consonant sound.
- French: "le"/"la"/"de" before a vowel (it would be elided: "l'", "d'"), "l'"/"d'" before a
  consonant; a plural article ("les", "des", "ces") before a singular word; "un"/"le" before a
  feminine ending (-tion, -té, -ance, …) and "une"/"la" before a masculine one (-ment, -isme, …).
- Spanish and Portuguese: a plural article (los, las, unos, unas; os, as, uns, umas) before a
  singular word; a masculine article before a feminine ending (-ción, -dad; -ção, -dade, …) and a
  feminine one before a masculine ending (-miento, -aje, -ismo; -mento, -ismo, …).
- German: "ein"/"das" before a feminine ending (-ung, -heit, -keit, -schaft, -ion, -tät, …), and
  "eine"/"die" before a masculine or neuter one (-ismus, -ment, -chen for "eine", …).

Noun endings give a gender only for the endings listed, so the checks say nothing about most words:
they catch the clear cases and never guess.
"""

import re

from courses.quality.words import words

# English words spelled with a vowel but said with a consonant, and the reverse.
_EN_CONSONANT_SOUND = re.compile(r"^(uni|use|usu|uti|ure|uro|eu|ewe|one|once|ubiq|uga)", re.I)
_EN_VOWEL_SOUND = re.compile(r"^(hour|honest|honou?r|heir|herb)", re.I)

_FEMININE = {
    "fr-FR": ("tion", "sion", "xion", "té", "ance", "ence", "ette", "ude", "esse"),
    "es-ES": ("ción", "sión", "dad", "tad", "tud", "umbre", "eza"),
    "pt-BR": ("ção", "ções", "são", "dade", "agem", "ência", "ância", "eza"),
    "de-DE": ("ung", "heit", "keit", "schaft", "ion", "tät", "ik", "enz", "anz", "ei"),
}
_MASCULINE = {
    "fr-FR": ("ment", "isme", "oir"),
    "es-ES": ("miento", "aje", "ismo"),
    "pt-BR": ("mento", "ismo"),
    # Masculine or neuter: what "eine" and "die" (singular) do not fit.
    "de-DE": ("ismus", "ment", "chen", "lein", "ling", "um"),
}
# Short words with those endings that are not nouns of that gender.
_NOT_A_NOUN = {"de-DE": {"bei", "frei", "zwei", "drei", "dabei", "um", "zum", "warum", "darum", "publikum"}}

# Articles that fix a gender, per language: article → the endings it cannot stand before.
_GENDER_ARTICLES = {
    "fr-FR": {"un": "feminine", "le": "feminine", "une": "masculine", "la": "masculine"},
    "es-ES": {"el": "feminine", "un": "feminine", "la": "masculine", "una": "masculine"},
    "pt-BR": {"o": "feminine", "um": "feminine", "a": "masculine", "uma": "masculine"},
    "de-DE": {"ein": "feminine", "das": "feminine", "eine": "masculine"},
}
_PLURAL_ARTICLES = {
    "fr-FR": {"les", "des", "ces", "mes", "tes", "ses", "nos", "vos", "leurs", "quelques", "plusieurs"},
    "es-ES": {"los", "las", "unos", "unas", "estos", "estas", "esos", "esas", "sus"},
    "pt-BR": {"os", "as", "uns", "umas", "estes", "estas", "esses", "essas", "seus", "suas"},
}
_PLURAL_ENDINGS = {"fr-FR": ("s", "x", "z"), "es-ES": ("s", "z"), "pt-BR": ("s",)}
_FRENCH_ELIDING = {"le", "la", "de", "que", "ce", "je", "ne", "se"}
_VOWEL_START = re.compile(r"^[aeiouyàâäéèêëîïôöùûüœæ]", re.I)
_CONSONANT_START = re.compile(r"^[b-df-gj-np-tv-xz]", re.I)  # "h" may be mute: never a cue


def cues(stem: str, options: list[str], language: str) -> list[int]:
    """The positions of the options that the end of the stem does not fit grammatically."""
    ending = _stem_ending(stem)
    if ending is None:
        return []
    word, elided = ending
    check = {
        "en-US": _english,
        "fr-FR": _french,
        "es-ES": _romance,
        "pt-BR": _romance,
        "de-DE": _german,
    }[language]
    return [
        number
        for number, option in enumerate(options)
        if (option_words := words(option, language)) and check(word, elided, option_words, language)
    ]


def _stem_ending(stem: str) -> tuple[str, bool] | None:
    """The stem's last word when the stem runs on into the options (no closing punctuation)."""
    tail = stem.rstrip().rstrip("_…. ").rstrip()
    if not tail or tail[-1] in '?!:;)»”"':
        return None
    match = re.search(r"([^\W\d_]+)([’']?)$", tail)
    if match is None:
        return None
    return match.group(1).casefold(), bool(match.group(2))


def _english(article: str, elided: bool, option_words: list[str], language: str) -> bool:
    if article not in ("a", "an"):
        return False
    first = option_words[0]
    if first.isupper() and len(first) > 1:
        return False  # an abbreviation: said letter by letter, so no rule from its spelling
    vowel_sound = bool(_VOWEL_START.match(first)) and not _EN_CONSONANT_SOUND.match(first)
    vowel_sound = vowel_sound or bool(_EN_VOWEL_SOUND.match(first))
    return vowel_sound if article == "a" else not vowel_sound


def _french(article: str, elided: bool, option_words: list[str], language: str) -> bool:
    first = option_words[0]
    if elided and article in ("l", "d", "qu", "c", "j", "n", "s"):
        return bool(_CONSONANT_START.match(first))
    if article in _FRENCH_ELIDING and _VOWEL_START.match(first):
        return True
    return _romance(article, elided, option_words, language)


def _romance(article: str, elided: bool, option_words: list[str], language: str) -> bool:
    first = option_words[0].casefold()
    if article in _PLURAL_ARTICLES[language]:
        return not first.endswith(_PLURAL_ENDINGS[language])
    return _wrong_gender(article, [first], language)


def _german(article: str, elided: bool, option_words: list[str], language: str) -> bool:
    if article == "die":
        # "die" is feminine or plural: it cannot stand before a singular masculine or neuter ending
        # that has a plural of its own (-ismus → -ismen, -ment → -mente).
        return any(
            word.casefold().endswith(("ismus", "ment")) for word in option_words[:3] if word[:1].isupper()
        )
    nouns = [word.casefold() for word in option_words[:3] if word[:1].isupper()]
    return _wrong_gender(article, nouns, language)


def _wrong_gender(article: str, candidates: list[str], language: str) -> bool:
    gender_not_fitting = _GENDER_ARTICLES.get(language, {}).get(article)
    if gender_not_fitting is None:
        return False
    endings = _FEMININE[language] if gender_not_fitting == "feminine" else _MASCULINE[language]
    other = _MASCULINE[language] if gender_not_fitting == "feminine" else _FEMININE[language]
    for word in candidates:
        if word in _NOT_A_NOUN.get(language, set()) or len(word) < 4:
            continue
        if word.endswith(endings):
            return True
        if word.endswith(other):
            return False  # the head noun fits: later words belong to it
    return False
