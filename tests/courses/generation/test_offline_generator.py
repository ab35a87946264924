import re
import string

import pytest
from django.core.exceptions import ImproperlyConfigured

from courses.content import CourseContent
from courses.generation import GenerationFailed, GenerationTimeout
from courses.generation import texts as templates
from tests.support.generation import generate
from tests.support.samples import ALL_ADD_ONS
from tests.support.walk import assert_complete, language_of, prose

LANGUAGES = ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]
OUTLINES = {
    "en-US": ["Relational tables", "Filtering rows", "Joins"],
    "pt-BR": ["Tabelas relacionais", "Filtrando linhas", "Junções"],
    "es-ES": ["Tablas relacionales", "Filtrar filas", "Uniones"],
    "fr-FR": ["Tables relationnelles", "Filtrer les lignes", "Jointures"],
    "de-DE": ["Relationale Tabellen", "Zeilen filtern", "Joins"],
}


@pytest.mark.parametrize("language_id", LANGUAGES)
@pytest.mark.parametrize("format", ["onepage", "classic"])
@pytest.mark.parametrize("with_outline", [False, True], ids=["generated-outline", "given-outline"])
def test_offline_course_with_every_add_on_is_complete_in_every_language(language_id, format, with_outline):
    outline = OUTLINES[language_id] if with_outline else []

    course = generate(language_id=language_id, format=format, outline=outline, add_ons=ALL_ADD_ONS)

    assert_complete(course, language_id=language_id, format=format, add_ons=ALL_ADD_ONS)


@pytest.mark.parametrize("language_id", ["pt-BR", "es-ES", "fr-FR", "de-DE"])
def test_offline_course_in_another_language_shares_no_text_with_the_english_one(language_id):
    english = generate(language_id="en-US")

    translated = generate(language_id=language_id)

    english_texts = {text for _, text in prose(english)}
    assert not english_texts & {text for _, text in prose(translated)}
    assert {lesson.title for chapter in english.chapters for lesson in chapter.lessons}.isdisjoint(
        lesson.title for chapter in translated.chapters for lesson in chapter.lessons
    )


def test_offline_portuguese_course_is_written_in_portuguese():
    course = generate(language_id="pt-BR", outline=["Junções"])

    body = course.chapters[0].lessons[0].body
    assert course.chapters[0].lessons[0].title == "Junções: o que é e por que importa"
    assert "você" in body and "Uma definição de trabalho" in body
    assert language_of(body) == "pt-BR"
    assert not re.search(r"\b(the|and|your)\b", body)


def test_given_outline_is_the_chapters_exactly_and_in_order():
    outline = ["Zeta comes first", "Alpha", "Middle chapter", "A", "B", "C", "D", "E", "Ninth"]

    course = generate(outline=outline)

    assert [chapter.title for chapter in course.chapters] == outline
    assert all(
        lesson.title.startswith(f"{chapter.title}: ")
        for chapter in course.chapters
        for lesson in chapter.lessons
    )


def test_course_without_outline_gets_a_planned_sequence_of_chapters():
    course = generate(outline=[])

    assert [chapter.title for chapter in course.chapters] == [
        "Getting started",
        "Core ideas",
        "Putting it into practice",
        "Mistakes and troubleshooting",
        "Keep improving",
    ]
    assert [lesson.title for lesson in course.chapters[0].lessons] == [
        "What it is and why it matters",
        "Where it is used",
        "Key terms and ideas",
    ]
    assert course.name == "Intro to SQL"
    assert "Intro to SQL" in course.chapters[0].lessons[0].body


def test_offline_generator_is_deterministic():
    first = generate(language_id="fr-FR", outline=["Jointures", "Index"])

    second = generate(language_id="fr-FR", outline=["Jointures", "Index"])

    assert first == second


def test_course_has_only_the_add_ons_asked_for():
    course = generate(add_ons=["wrapup"])

    assert course.add_ons == ["wrapup"]
    assert course.wrapup is not None
    assert (course.assessment, course.agreement) == (None, None)
    lessons = [lesson for chapter in course.chapters for lesson in chapter.lessons]
    assert all(lesson.exercise is None and lesson.video is None for lesson in lessons)
    assert all(chapter.article is None for chapter in course.chapters)


def test_repeated_add_on_counts_once():
    course = generate(add_ons=["assessment", "assessment", "agreement"])

    assert course.add_ons == ["assessment", "agreement"]


def test_assessment_does_not_always_put_the_correct_answer_first():
    course = generate(add_ons=["assessment"])

    questions = course.assessment.questions
    assert len(questions) >= 5
    assert len({question.correct_index for question in questions}) >= 3
    assert course.assessment.passing_score_percent == 80
    assert "Write a working definition in your own words and test it on examples" in [
        question.options[question.correct_index] for question in questions
    ]


def test_videos_without_a_youtube_key_are_search_suggestions_per_lesson():
    course = generate(add_ons=["videos"], outline=["Joins"])

    videos = [lesson.video for lesson in course.chapters[0].lessons]
    assert [video.query for video in videos] == [
        "Intro to SQL Joins explained",
        "Intro to SQL Joins step by step tutorial",
        "Intro to SQL Joins common mistakes",
    ]
    assert videos[0].kind == "search" and videos[0].video_id is None
    assert videos[0].url == "https://www.youtube.com/results?search_query=Intro+to+SQL+Joins+explained"
    assert videos[0].title == "YouTube search: Intro to SQL Joins explained"


def test_progress_rises_through_the_steps_and_stays_below_100():
    progress = []

    generate(progress=progress)

    assert progress == sorted(set(progress))
    assert progress[0] >= 1 and progress[-1] == 99
    assert len(progress) >= 5


HOSTILE_SUBJECTS = {
    "html": "<script>alert('x')</script><b>SQL</b> & <img src=x onerror=alert(1)>",
    "markdown": "**Bold** [click](javascript:alert(1)) # Heading `code` ![img](http://x/y.png) | table |",
    "format-string": "{s} {t} {0} {subject!r} %s {{}}",
    "unicode": "Ünïcödé 日本語の文法 🚀 עברית العربية \u200b\u202e reversed",
    "at-the-api-limit": "Very long subject " * 11 + "end",
    "far-beyond-the-limit": "x" * 5000,
    "whitespace": "  \t SQL\n\nfor\r\nanalysts \x0b ",
}


@pytest.mark.parametrize("subject", HOSTILE_SUBJECTS.values(), ids=HOSTILE_SUBJECTS.keys())
@pytest.mark.parametrize("language_id", ["en-US", "fr-FR"])
def test_hostile_subject_still_gives_a_valid_course_that_shows_it_literally(subject, language_id):
    course = generate(subject=subject, language_id=language_id, outline=[subject, "Second <i>chapter</i>"])

    CourseContent.model_validate(course.model_dump(mode="json"))
    assert_complete(course, language_id=language_id, format="onepage", add_ons=ALL_ADD_ONS)
    markdown = [course.introduction, course.wrapup.summary, course.agreement.statement] + [
        text
        for chapter in course.chapters
        for text in [chapter.article.body] + [lesson.body for lesson in chapter.lessons]
    ]
    for text in markdown:
        # Markdown shows a backslash-escaped character as itself: no tag, link or emphasis survives.
        assert not re.search(r"(?<!\\)[<`]", text)
        assert "[click](" not in text and "**Bold**" not in text


def test_markdown_escaping_keeps_the_subject_readable():
    course = generate(subject="C++ & <templates>", add_ons=[])

    assert course.name == "C++ & <templates>"
    assert course.headline == "A practical, step-by-step course on “C++ & <templates>”"
    assert course.introduction.startswith(r"Welcome to this course on “C\+\+ \& \<templates\>”.")


def test_blank_subject_is_refused():
    with pytest.raises(GenerationFailed) as failure:
        generate(subject=" \t\n ")

    assert failure.value.code == "GENERATION_FAILED"


def test_generation_past_its_deadline_times_out():
    with pytest.raises(GenerationTimeout) as failure:
        generate(seconds=-1)

    assert failure.value.code == "GENERATION_TIMEOUT"
    assert failure.value.message == "Generating the course took too long and was stopped. Please try again."


def _shape(value):
    """The keys, list lengths and placeholders of a text table, without its words."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_shape(item) for item in value]
    if isinstance(value, int):
        return value  # an index into the table (the objective a question tests): the same everywhere
    return sorted({name for _, name, _, _ in string.Formatter().parse(value) if name})


@pytest.mark.parametrize("language_id", ["pt-BR", "es-ES", "fr-FR", "de-DE"])
def test_the_templates_in_every_language_have_the_texts_and_placeholders_of_the_english_ones(language_id):
    assert _shape(templates.in_language(language_id)) == _shape(templates.in_language("en-US"))


def test_french_course_keeps_french_typography():
    course = generate(language_id="fr-FR", outline=["Jointures"], add_ons=[])

    assert (
        course.chapters[0].lessons[0].title
        == "Jointures\u00a0: de quoi s'agit-il et pourquoi est-ce important\u202f?"
    )
    assert course.headline == "Un cours pratique, pas à pas, sur «\u00a0Intro to SQL\u00a0»"


def test_unknown_generator_setting_is_a_configuration_error(settings):
    settings.COURSE_GENERATOR = "gpt"

    with pytest.raises(ImproperlyConfigured):
        generate()
