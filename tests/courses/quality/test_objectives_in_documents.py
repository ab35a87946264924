"""Learning objectives in the course document: optional, named once, and only tested if they exist."""

import pydantic
import pytest

from courses.content import CourseContent
from tests.support import samples
from tests.support.quality_documents import course, objective


def test_a_document_without_objectives_is_still_valid():
    document = samples.course_document()
    for chapter in document["chapters"]:
        del chapter["objectives"]
    for question in document["assessment"]["questions"]:
        del question["objectiveId"]

    parsed = CourseContent.model_validate(document)

    assert all(chapter.objectives == [] for chapter in parsed.chapters)
    assert all(question.objective_id is None for question in parsed.assessment.questions)


def test_two_objectives_with_one_id_are_refused():
    with pytest.raises(pydantic.ValidationError, match="two objectives have the same id"):
        course(objectives=[objective("en-US"), objective("en-US")])


def test_a_question_may_only_test_an_objective_the_course_has():
    document = course().model_dump(mode="json")
    document["assessment"]["questions"][0]["objectiveId"] = "7.7"

    with pytest.raises(
        pydantic.ValidationError, match=r"a question tests objective 7\.7, which no chapter has"
    ):
        CourseContent.model_validate(document)


def test_a_chapter_has_at_most_three_objectives_each_with_a_known_bloom_level():
    four = [objective("en-US", id=f"1.{number}") for number in range(1, 5)]

    with pytest.raises(pydantic.ValidationError, match="at most 3 items"):
        course(objectives=four)
    with pytest.raises(pydantic.ValidationError, match="bloomLevel"):
        course(objectives=[objective("en-US", level="memorise")])
