"""Languages, formats and add-ons are listed in a few places for good reasons; they must agree."""

import typing

from courses import content
from courses.generation import texts
from courses.models import AddOn, Format, Language
from courses.player import strings


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
    assert set(texts.TEXTS) == set(Language.values)
    assert set(strings.WORDS) == set(Language.values)


def test_the_course_player_has_every_one_of_its_words_in_every_language():
    english = set(strings.WORDS["en-US"])

    assert {language: set(words) for language, words in strings.WORDS.items()} == dict.fromkeys(
        strings.WORDS, english
    )
