"""Languages, formats and add-ons are listed in a few places for good reasons; they must agree."""

import typing
from pathlib import Path

from django.conf import settings
from django.utils import translation

from core.languages import Language
from courses import content
from courses.models import AddOn, Format

LOCALE = Path(settings.BASE_DIR) / "locale"


def literal_values(annotation) -> set[str]:
    while typing.get_origin(annotation) is not typing.Literal:
        annotation = typing.get_args(annotation)[0]
    return set(typing.get_args(annotation))


def test_the_course_document_accepts_exactly_the_api_vocabularies():
    fields = content.CourseContent.model_fields

    assert literal_values(fields["language_id"].annotation) == set(Language.values)
    assert literal_values(fields["format"].annotation) == set(Format.values)
    assert set(typing.get_args(content.AddOnCode)) == set(AddOn.values)


def test_generators_and_the_course_player_speak_every_language():
    # English is the phrases' own language; every other one has a catalogue (courses.phrases).
    catalogues = {path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/django.mo")}

    assert catalogues | {"en_US"} == {translation.to_locale(language) for language in Language.values}
