from courses.content import CourseContent
from tests.support.factories import CourseFactory


def test_course_factory_builds_a_valid_complete_course(db):
    course = CourseFactory(format="classic", language_id="de-DE")

    content = CourseContent.model_validate(course.content)
    assert content.format == "classic" and content.language_id == "de-DE"
    assert course.job.api_key == course.api_key
    assert all(lesson.exercise and lesson.video for chapter in content.chapters for lesson in chapter.lessons)
