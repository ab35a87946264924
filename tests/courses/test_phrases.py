"""
The service's own words (courses.phrases): one gettext catalogue per course language, holding
exactly the phrases of the code, each translated, compiled, with the placeholders and Markdown
lines of its English; and each phrase says the same words wherever it appears: on the preview page
and in the SCORM and cmi5 players.
"""

import ast
import functools
import os
import re
import zipfile
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils.html import escape
from django.utils.translation.template import templatize

from core.languages import Language
from courses import phrases
from courses.generation import texts as templates
from courses.generation import videos
from exports.models import Export
from exports.player import strings
from tests.support import grounded_documents as documents
from tests.support.factories import CourseFactory
from tests.support.grounded import ALL_ADD_ONS, add_source, make_course

LOCALE = Path(settings.BASE_DIR) / "locale"
CATALOGUES = sorted(path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/django.po"))


# The catalogues -------------------------------------------------------------------------------


@pytest.mark.parametrize("locale", CATALOGUES)
def test_every_catalogue_holds_exactly_the_phrases_of_the_code_and_templates(locale):
    # make messages gathers them: a phrase added, changed or removed without it fails here.
    po = catalogue(locale)

    assert {(entry.msgctxt, entry.msgid) for entry in po} == phrases_of_the_code()


def test_the_phrases_of_the_code_are_those_of_the_pages_players_and_generators():
    english = {message for _, message in phrases_of_the_code()}

    assert english_phrases(templates.TEXTS) | set(strings.WORDS.values()) <= english
    assert {videos.SEARCH_TITLE, phrases.QUOTED, "Key takeaways", "Chapter %(number)s"} <= english
    assert len(english) > 300


@pytest.mark.parametrize("locale", CATALOGUES)
def test_every_catalogue_translates_every_phrase(locale):
    po = catalogue(locale)

    assert [entry.msgid for entry in po if not entry.translated()] == []  # fuzzy ones included
    assert po.obsolete_entries() == []
    # A new catalogue starts with a header to fill in.
    assert not po.metadata_is_fuzzy
    assert po.metadata["Language"] == locale
    assert po.metadata["Plural-Forms"].startswith("nplurals=")


@pytest.mark.parametrize("locale", CATALOGUES)
def test_every_translation_keeps_the_placeholders_and_markdown_lines_of_its_phrase(locale):
    po = catalogue(locale)

    assert [entry.msgid for entry in po if placeholders(entry.msgstr) != placeholders(entry.msgid)] == []
    assert [entry.msgid for entry in po if markdown_lines(entry.msgstr) != markdown_lines(entry.msgid)] == []


@pytest.mark.parametrize("locale", CATALOGUES)
def test_every_compiled_catalogue_is_current_with_its_source(locale):
    # make messages compiles them: a .po edited without it fails here.
    po = catalogue(locale)

    compiled = polib.mofile(str(LOCALE / locale / "LC_MESSAGES" / "django.mo"))

    assert {(entry.msgctxt, entry.msgid): entry.msgstr for entry in compiled} == {
        (entry.msgctxt, entry.msgid): entry.msgstr for entry in po.translated_entries()
    }


def test_french_phrases_keep_french_typography():
    wrong = [
        entry.msgstr
        for entry in catalogue("fr_FR")
        # A no-break space before : and », a narrow one before ; ? ! (either will do), one after «.
        if re.search(r"[^\u00a0\u202f][:;?!»]|«[^\u00a0]", entry.msgstr)
    ]

    assert wrong == []


@pytest.mark.parametrize(
    ("language_id", "marks"),
    [
        ("en-US", ("“", "”")),
        ("pt-BR", ("“", "”")),
        ("es-ES", ("«", "»")),
        ("fr-FR", ("«\u00a0", "\u00a0»")),
        ("de-DE", ("„", "“")),
    ],
)
def test_each_language_has_its_quotation_marks(language_id, marks):
    assert phrases.quotation_marks(language_id) == marks


def test_a_language_without_a_catalogue_speaks_english():
    assert phrases.translated(["Key takeaways", {"quiz": "Assessment"}, 3], "it-IT") == [
        "Key takeaways",
        {"quiz": "Assessment"},
        3,
    ]


# Where the phrases are shown ------------------------------------------------------------------

# Phrases both the preview page and the player show, each as an element's whole text.
SHARED = ["Introduction", "Wrap-up", "Key takeaways", "Assessment", "Agreement", "Sources", "Contents", "Try again"]
# The classic page's pager, and the player's.
PAGER = ["Previous", "Next"]


@pytest.fixture(autouse=True)
def _offline(settings):
    settings.COURSE_GENERATOR = "offline"
    settings.YOUTUBE_API_KEY = ""


@pytest.fixture
def policy(api_client) -> str:
    return add_source(api_client, documents.policy_docx(), "policy.docx")


@pytest.mark.parametrize("language_id", Language.values)
def test_the_page_and_both_players_say_each_phrase_they_share_alike(client, api_client, policy, language_id):
    course = make_course(
        api_client, subject="Office rules", sources=[policy], addOns=ALL_ADD_ONS, languageId=language_id
    )
    classic = CourseFactory(language_id=language_id, format="classic")

    shown = {
        "page": client.get(f"/go/{course['id']}").content.decode(),
        "scorm12": exported(api_client, course["id"], "scorm12"),
        "cmi5": exported(api_client, course["id"], "cmi5"),
    }
    classic_page = client.get(f"/go/{classic.public_id}/1").content.decode()

    words = phrases.translated(SHARED, language_id)
    pager = phrases.translated(PAGER, language_id)
    chapter = phrases.translated("Chapter %(number)s", language_id) % {"number": 1}
    source = phrases.translated("Source {number}", language_id).format(number=1)
    opening, closing = phrases.quotation_marks(language_id)
    for where, html in shown.items():
        assert [word for word in words if f">{escape(word)}<" not in html] == [], where
        assert f">{escape(chapter)}<" in html, where
        assert f'aria-label="{escape(source)}"' in html, where
        assert re.search(f'class="source-quote">{re.escape(opening)}[^<]+{re.escape(closing)}</', html), where
    for where, html in (("classic page", classic_page), ("scorm12", shown["scorm12"]), ("cmi5", shown["cmi5"])):
        assert [word for word in pager if f">{escape(word)}<" not in html] == [], where


def exported(api_client, course_id: str, format: str) -> str:
    """The player's launch page in a package exported through the API."""
    response = api_client.post(f"/api/v1/courses/{course_id}/export", {"format": format}, format="json")
    assert response.status_code == 200, response.content
    export = Export.objects.filter(course__public_id=course_id, format=format).latest("id")
    with export.file.open("rb") as stored, zipfile.ZipFile(stored) as archive:
        return archive.read("index.html").decode()


# Reading the catalogues and the code ----------------------------------------------------------


def catalogue(locale: str) -> polib.POFile:
    return polib.pofile(str(LOCALE / locale / "LC_MESSAGES" / "django.po"))


def placeholders(text: str) -> list[str]:
    """{name}, %(name)s and %s, as many times as they occur (%% is a percent sign)."""
    return sorted(re.findall(r"\{\w*\}|%\(\w+\)[sd]|%[sd]", text.replace("%%", "")))


def markdown_lines(text: str) -> list[str]:
    """What starts each line where it is Markdown structure: a heading, a list item, a quote, a blank."""
    return [re.match(r"(#+ |- |\d+\. |>|)", line)[1] if line else "" for line in text.split("\n")]


def english_phrases(value) -> set[str]:
    """Every message in a template table, however deep."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return set().union(*(english_phrases(item) for item in value))
    return set()


_LEFT_OUT = {"node_modules", "staticfiles", "tests", "build", "media"}  # as `make messages` does
_MARKERS = {"gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy", "pgettext_noop"}
# What templatize makes of {% translate %} and {% blocktranslate %}: calls for xgettext to read.
_TEMPLATE_CALL = re.compile(r"\b(p?gettext)\((u?'(?:[^'\\]|\\.)*')(?:, (u?'(?:[^'\\]|\\.)*'))?\)")


@functools.cache
def phrases_of_the_code() -> frozenset[tuple[str | None, str]]:
    """
    (context, message) of every phrase marked in the service's code and templates, found as
    makemessages finds them (in the same files).
    """
    found = set()
    for folder, folders, names in os.walk(settings.BASE_DIR):
        folders[:] = [name for name in folders if not name.startswith(".") and name not in _LEFT_OUT]
        for path in (Path(folder) / name for name in names):
            if path.suffix == ".py":
                found |= _marked_in_python(ast.parse(path.read_text(encoding="utf-8")))
            elif path.suffix in (".html", ".txt"):
                for marker, first, second in _TEMPLATE_CALL.findall(templatize(path.read_text(encoding="utf-8"))):
                    found.add(
                        (ast.literal_eval(first), ast.literal_eval(second))
                        if marker == "pgettext"
                        else (None, ast.literal_eval(first))
                    )
    return frozenset(found)


def _marked_in_python(tree: ast.Module) -> set[tuple[str | None, str]]:
    markers = {
        alias.asname or alias.name: alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation"
        for alias in node.names
        if alias.name in _MARKERS
    }
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name):
            marker = markers.get(node.func.id)
        elif isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", None) == "translation":
            marker = node.func.attr if node.func.attr in _MARKERS else None
        else:
            marker = None
        arguments = [argument.value for argument in node.args if isinstance(argument, ast.Constant)]
        if marker is None or not arguments or len(arguments) != len(node.args):
            continue  # not a phrase, or a variable holding phrases marked where they are written
        found.add((arguments[0], arguments[1]) if marker.startswith("p") else (None, arguments[0]))
    return found
