"""
The service's own words in every course language: the preview pages, the course player (SCORM and
cmi5) and the offline generators' templates all read them here.

A phrase is written in the code in English, and that English is its message id; each other language
has one gettext catalogue, `locale/<language>_<REGION>/LC_MESSAGES/django.po`, compiled to the
`django.mo` beside it, and read through Django's translation machinery (templates use
`{% translate %}` inside `translation.override`). A phrase takes one translation per language
wherever it appears. `make messages` gathers the phrases of the code into every catalogue and
compiles them.
"""

from django.utils import translation
from django.utils.translation import gettext_noop as _

# Translators: the language's quotation marks around a subject, a title or a quoted sentence, with
# any space they take (French: a no-break space inside « »).
QUOTED = _("“{text}”")


def translated(phrases, language_id: str):
    """
    The phrases in the language: a message, or a dict, list or tuple of them (nested as deep as
    need be), with every string translated and every other value as it is. A language without a
    catalogue, and a message its catalogue lacks, stay in English.
    """
    with translation.override(language_id):
        return _translate(phrases)


def quotation_marks(language_id: str) -> tuple[str, str]:
    """The language's opening and closing quotation marks."""
    opening, closing = translated(QUOTED, language_id).split("{text}")
    return opening, closing


def _translate(value):
    if isinstance(value, str):
        return translation.gettext(value)
    if isinstance(value, dict):
        return {key: _translate(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_translate(item) for item in value)
    return value
