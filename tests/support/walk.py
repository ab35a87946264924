"""Walks a whole course document: every part present, every text non-empty and in the course language."""

import re

from courses.content import CourseContent
from courses.quality import bloom

# Short words that are frequent in one course language and rare in the others.
MARKERS = {
    "en-US": set("the and is are you your with what this that it how for to of can when".split()),
    "pt-BR": set(
        "você não uma um com os do da dos das seu sua são isso também ao pelo pela no na é em o e".split()
    ),
    "es-ES": set("el y los del tu tus qué cómo también lo al con una las su sus".split()),
    "fr-FR": set("le les et est vous votre vos une avec pour des du ce qui sur pas au aux".split()),
    "de-DE": set("der die das und ist sie ihr nicht mit für ein eine zu wie den dem auf sich im".split()),
}


def language_of(text: str) -> str | None:
    """The course language the text is clearly written in, or None when it is not clear."""
    words = re.findall(r"\w+", text.lower())
    scores = sorted(
        ((sum(word in markers for word in words), language) for language, markers in MARKERS.items()),
        reverse=True,
    )
    (best, language), (runner_up, _) = scores[0], scores[1]
    return language if best >= 2 and best >= 2 * runner_up else None


def prose(course: CourseContent) -> list[tuple[str, str]]:
    """(where, text) for every piece of running text long enough to tell its language."""
    found = [("introduction", course.introduction)]
    for c, chapter in enumerate(course.chapters):
        for n, lesson in enumerate(chapter.lessons):
            found.append((f"chapter {c} lesson {n} body", lesson.body))
            if lesson.exercise:
                exercise = lesson.exercise
                found.append(
                    (
                        f"chapter {c} lesson {n} exercise",
                        " ".join([exercise.task, *exercise.steps, exercise.expected_result]),
                    )
                )
        if chapter.article:
            found.append((f"chapter {c} article", chapter.article.body))
    if course.wrapup:
        found.append(("wrapup", " ".join([course.wrapup.summary, *course.wrapup.key_takeaways])))
    if course.assessment:
        for q, question in enumerate(course.assessment.questions):
            found.append(
                (f"question {q}", " ".join([question.prompt, *question.options, question.explanation]))
            )
    if course.agreement:
        found.append(("agreement", course.agreement.statement))
    return found


def assert_complete(course: CourseContent, *, language_id: str, format: str, add_ons: list[str]) -> None:
    """Every chapter, lesson, exercise, video, article and question is there, filled, in the language."""
    course = CourseContent.model_validate(course.model_dump(mode="json"))  # the stored form validates
    assert (course.language_id, course.format, set(course.add_ons)) == (language_id, format, set(add_ons))
    assert course.name.strip() and course.headline.strip() and course.introduction.strip()
    assert 1 <= len(course.chapters) <= 9
    for chapter in course.chapters:
        assert chapter.title.strip() and chapter.summary.strip()
        assert 2 <= len(chapter.lessons) <= 5
        assert 1 <= len(chapter.objectives) <= 3
        for objective in chapter.objectives:
            # A measurable verb of our table, at the level the table gives it.
            assert objective.bloom_level == bloom.level_of(objective.verb, language_id), objective
            assert objective.object.strip()
        for lesson in chapter.lessons:
            assert lesson.title.strip() and lesson.body.strip()
            if "practical-exercises" in add_ons:
                assert lesson.exercise.task.strip() and lesson.exercise.expected_result.strip()
                assert lesson.exercise.steps and all(step.strip() for step in lesson.exercise.steps)
            else:
                assert lesson.exercise is None
            if "videos" in add_ons:
                video = lesson.video
                assert video.title.strip() and video.query.strip()
                if video.kind == "youtube":
                    assert video.url == f"https://www.youtube.com/watch?v={video.video_id}"
                else:
                    assert video.url.startswith("https://www.youtube.com/results?search_query=")
            else:
                assert lesson.video is None
        if "articles" in add_ons:
            assert chapter.article.title.strip() and chapter.article.body.strip()
        else:
            assert chapter.article is None
    if "wrapup" in add_ons:
        assert course.wrapup.summary.strip() and len(course.wrapup.key_takeaways) >= 3
        assert all(takeaway.strip() for takeaway in course.wrapup.key_takeaways)
    if "assessment" in add_ons:
        assert len(course.assessment.questions) >= 3
        objectives = {objective.id for chapter in course.chapters for objective in chapter.objectives}
        for question in course.assessment.questions:
            assert question.objective_id in objectives
            assert question.prompt.strip() and question.explanation.strip()
            assert len(question.options) >= 2 and all(option.strip() for option in question.options)
            assert 0 <= question.correct_index < len(question.options)
        assert 1 <= course.assessment.passing_score_percent <= 100
    if "agreement" in add_ons:
        assert course.agreement.statement.strip()
    for where, text in prose(course):
        assert language_of(text) == language_id, f"{where} is not in {language_id}: {text[:200]!r}"
