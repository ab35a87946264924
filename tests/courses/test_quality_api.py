"""GET /api/v1/courses/:id/quality: the quality report of a course, for the key that owns it."""

import pytest
from django.contrib.auth.models import User

from accounts import services as account_services
from courses import jobs
from courses.models import Course
from tests.support import legacy
from tests.support.factories import CourseFactory
from tests.support.keys import client_for
from tests.support.quality_documents import course as quality_course
from tests.support.quality_documents import question

NOT_FOUND = {"message": "Course not found.", "code": "NOT_FOUND"}


def quality(client, course_id: str, **extra):
    return client.get(f"/api/v1/courses/{course_id}/quality", **extra)


@pytest.fixture
def generated_course(api_key, django_capture_on_commit_callbacks) -> Course:
    """A course made the way clients make one: create a job, and the offline generator writes it."""
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.create_job(
            api_key=api_key,
            subject="Intro to SQL",
            format="onepage",
            language_id="fr-FR",
            outline=["Jointures", "Index"],
            add_ons=["assessment", "practical-exercises"],
        )
    return Course.objects.get(job=job)


def test_a_generated_course_gets_its_whole_report(api_client, generated_course):
    response = quality(api_client, generated_course.public_id)

    body = response.json()
    assert response.status_code == 200
    assert list(body) == [
        "courseId",
        "languageId",
        "rulesVersion",
        "summary",
        "findings",
        "objectives",
        "untestedObjectives",
        "readability",
    ]
    assert (body["courseId"], body["languageId"], body["rulesVersion"]) == (
        generated_course.public_id,
        "fr-FR",
        4,
    )
    assert body["summary"] == {
        "score": 100,
        "findings": 0,
        "high": 0,
        "medium": 0,
        "low": 0,
        "questions": 4,
        "questionsWithFindings": 0,
        "objectives": 4,
        "objectivesTested": 4,
        "lessons": 6,
        "lessonsWithFindings": 0,
    }
    assert body["findings"] == [] and body["untestedObjectives"] == []
    first = body["objectives"][0]
    assert first == {
        "id": "1.1",
        "where": "/chapters/0/objectives/0",
        "chapter": 0,
        "verb": "expliquer",
        "object": "en quoi consiste «\u00a0Jointures\u00a0» et pourquoi c'est important",
        "statement": "Expliquer en quoi consiste «\u00a0Jointures\u00a0» et pourquoi c'est important",
        "bloomLevel": "understand",
        "questions": first["questions"],
    }
    assert [objective["bloomLevel"] for objective in body["objectives"]] == ["understand", "apply"] * 2
    assert sorted(number for objective in body["objectives"] for number in objective["questions"]) == [
        0,
        1,
        2,
        3,
    ]
    lesson = body["readability"][0]
    assert (lesson["where"], lesson["chapter"], lesson["lesson"]) == ("/chapters/0/lessons/0", 0, 0)
    assert lesson["readability"]["formula"] == "kandel-moles"
    assert 30 <= lesson["readability"]["score"] <= 100
    assert set(lesson["readability"]) == {
        "formula",
        "score",
        "band",
        "words",
        "sentences",
        "wordsPerSentence",
        "syllablesPerWord",
    }


def test_findings_say_which_rule_how_severe_what_is_wrong_and_where(api_client, api_key):
    content = quality_course(
        questions=[
            question(
                "Which of these is not a join?",
                ["A merge sort", "An inner join", "A left join", "All of the above"],
            ),
            question("Which keyword sorts rows?", ["ORDER BY", "GROUP BY", "WHERE", "LIMIT"], 1),
            question("Which keyword filters rows?", ["WHERE", "GROUP BY", "ORDER BY", "LIMIT"], 2),
        ]
    )
    course = CourseFactory(api_key=api_key, content=content.model_dump(mode="json"))

    body = quality(api_client, course.public_id).json()

    assert body["findings"] == [
        {
            "code": "ALL_OR_NONE_OF_THE_ABOVE",
            "severity": "medium",
            "part": "question",
            "where": "/assessment/questions/0",
            "partId": None,
            "partTitle": "Which of these is not a join?",
            "message": "Option D is “all (none) of the above”: learners answer it from partial knowledge. "
            "Write a specific, plausible option instead.",
            "ruleVersion": 1,
        },
        {
            "code": "NEGATIVE_STEM",
            "severity": "medium",
            "part": "question",
            "where": "/assessment/questions/0",
            "partId": None,
            "partTitle": "Which of these is not a join?",
            "message": "The stem is negative (“not”) without emphasis, so learners miss it: ask positively, or "
            "write the negative word in capitals (NOT).",
            "ruleVersion": 1,
        },
    ]
    assert body["summary"]["score"] == 90
    assert (body["summary"]["questionsWithFindings"], body["summary"]["medium"]) == (1, 2)


def test_a_course_written_before_objectives_existed_reports_their_absence(api_client, api_key):
    course = CourseFactory(api_key=api_key)  # tests.support.samples: no objectives, answers all at A

    body = quality(api_client, course.public_id).json()

    assert [(finding["code"], finding["where"]) for finding in body["findings"]] == [
        ("ANSWER_POSITION_PILED", "/assessment"),
        ("CHAPTER_WITHOUT_OBJECTIVES", "/chapters/0"),
        ("CHAPTER_WITHOUT_OBJECTIVES", "/chapters/1"),
        ("CHAPTER_WITHOUT_OBJECTIVES", "/chapters/2"),
    ]
    # Chapters have no id in the document: their titles name them, as the page shows them.
    assert [(finding["partId"], finding["partTitle"]) for finding in body["findings"]] == [
        (None, None), *((None, chapter["title"]) for chapter in course.content["chapters"])
    ]
    assert body["objectives"] == [] and body["summary"]["score"] == 100 - 15 - 3


def test_a_course_without_an_assessment_has_no_objective_tested(
    api_client, api_key, django_capture_on_commit_callbacks
):
    # No question tests any (nor is it a finding, as the course asks none): the summary counted
    # every objective as tested, and the report listed none as untested.
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.create_job(
            api_key=api_key, subject="Intro to SQL", format="onepage", language_id="en-US",
            outline=["Joins", "Indexes"], add_ons=[],
        )

    body = quality(api_client, Course.objects.get(job=job).public_id).json()

    summary = body["summary"]
    assert (summary["questions"], summary["objectivesTested"]) == (0, 0)
    assert summary["objectives"] > 0
    assert body["untestedObjectives"] == [objective["id"] for objective in body["objectives"]]
    assert body["findings"] == []


def test_a_course_stored_with_options_the_rules_now_refuse_reports_them_as_a_finding(api_client, api_key):
    # Stored before "two options say the same" (options A and B of the first question differ by a
    # trailing space): the rule is for what is written, the report says it. It was a 500.
    course = legacy.store_with_options_that_say_the_same(CourseFactory(api_key=api_key))

    latest = quality(api_client, course.public_id)
    first = quality(api_client, course.public_id, data={"version": 1})

    body = latest.json()
    assert (latest.status_code, first.status_code) == (200, 200)
    assert body["findings"][0] == {
        "code": "NEAR_DUPLICATE_OPTIONS",
        "severity": "medium",
        "part": "question",
        "where": "/assessment/questions/0",
        "partId": None,
        "partTitle": course.content["assessment"]["questions"][0]["prompt"],
        "message": "Options A and B are nearly the same text: make every option distinct.",
        "ruleVersion": 2,
    }
    assert [finding["code"] for finding in body["findings"][1:]] == [
        "ANSWER_POSITION_PILED", *["CHAPTER_WITHOUT_OBJECTIVES"] * 3
    ]
    assert body["summary"]["score"] == 100 - 5 - 15 - 3
    assert first.json() == body


def test_the_report_is_the_same_every_time(api_client, generated_course):
    first = quality(api_client, generated_course.public_id).json()

    again = quality(api_client, generated_course.public_id).json()

    assert first == again


def test_another_key_even_of_the_same_account_gets_404(
    api_client, account, stranger_client, generated_course
):
    sibling = client_for(account_services.issue_key(account=account, name="sibling"))

    for client in (stranger_client, sibling):
        response = quality(client, generated_course.public_id)
        assert response.status_code == 404
        assert response.json() == NOT_FOUND


@pytest.mark.parametrize("course_id", ["cou_doesnotexist", "cou_x", "x" * 300, "..", "cou_' OR 1=1 --"])
def test_odd_course_ids_are_404(api_client, course_id):
    response = quality(api_client, course_id)

    assert response.status_code == 404
    assert response.json() == NOT_FOUND


def test_reading_a_report_has_its_own_rate_limit(api_client, generated_course, settings):
    settings.RATE_LIMIT_READ = 2

    answers = [quality(api_client, generated_course.public_id) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert (answers[0]["RateLimit-Limit"], answers[0]["RateLimit-Remaining"]) == ("2", "1")
    assert answers[2].json()["code"] == "RATE_LIMIT_EXCEEDED"
    assert (
        api_client.get("/api/v1/courses/jobs/job_doesnotexist")["RateLimit-Limit"] == "120"
    )  # poll: its own


def test_the_default_read_limit_is_120_a_minute(api_client, generated_course):
    response = quality(api_client, generated_course.public_id)

    assert (response["RateLimit-Limit"], response["RateLimit-Remaining"]) == ("120", "119")


def test_a_report_costs_at_most_three_queries(api_client, generated_course, django_assert_num_queries):
    quality(api_client, generated_course.public_id)  # the key's last use was just written

    with django_assert_num_queries(2):  # the key, then the course with its document
        latest = quality(api_client, generated_course.public_id)
    with django_assert_num_queries(3):  # the key, the course, then the version
        first = quality(api_client, generated_course.public_id, data={"version": 1})

    assert latest.status_code == first.status_code == 200
    assert first.json() == latest.json()


def test_staff_see_the_report_on_the_course_admin_page(client, api_key):
    content = quality_course(
        questions=[
            question(
                "Which of these is not a join?",
                ["A merge sort", "An inner join", "A left join", "A cross join"],
            ),
            question("Which keyword sorts rows?", ["ORDER BY", "GROUP BY", "WHERE", "LIMIT"], 1),
            question("Which keyword filters rows?", ["WHERE", "GROUP BY", "ORDER BY", "LIMIT"], 2),
        ]
    )
    course = CourseFactory(api_key=api_key, content=content.model_dump(mode="json"))
    User.objects.create_superuser("staff", "staff@example.com", "a-long-admin-password")
    client.login(username="staff", password="a-long-admin-password")

    page = client.get(f"/admin/courses/course/{course.pk}/change/").content.decode()

    assert "<strong>Score 95</strong> of 100 (rules version 4)" in page
    assert "<code>NEGATIVE_STEM</code>" in page and "<code>/assessment/questions/0</code>" in page
    assert "Explain joins" in page  # the objective, with its Bloom level
    assert "understand" in page


def test_learners_never_see_the_report(client, api_key):
    content = quality_course(
        questions=[
            question(
                "Which of these is not a join?",
                ["A merge sort", "An inner join", "A left join", "A cross join"],
            ),
            question("Which keyword sorts rows?", ["ORDER BY", "GROUP BY", "WHERE", "LIMIT"], 1),
            question("Which keyword filters rows?", ["WHERE", "GROUP BY", "ORDER BY", "LIMIT"], 2),
        ]
    )
    course = CourseFactory(api_key=api_key, content=content.model_dump(mode="json"))

    page = client.get(f"/go/{course.public_id}").content.decode()
    without_key = client.get(f"/api/v1/courses/{course.public_id}/quality")

    assert page.count("Which of these is not a join?") >= 1
    assert "NEGATIVE_STEM" not in page and "Bloom" not in page and "objective" not in page.lower()
    assert without_key.status_code == 401


@pytest.mark.parametrize("query", ["version=", "version=first", "version=0", "version=&version="])
def test_a_version_that_is_no_number_is_a_400(api_client, course, query):
    response = api_client.get(f"/api/v1/courses/{course.public_id}/quality?{query}")

    assert (response.status_code, response.json()["code"]) == (400, "VALIDATION_ERROR")


def test_any_version_gets_its_own_report(api_client, generated_course):
    flawed = dict(generated_course.content)
    first = flawed["assessment"]["questions"][0]
    first = {**first, "options": [*first["options"][:-1], "Toutes les réponses ci-dessus"]}  # a French course
    flawed["assessment"] = {**flawed["assessment"], "questions": [first, *flawed["assessment"]["questions"][1:]]}
    edited = api_client.put(
        f"/api/v1/courses/{generated_course.public_id}/content", flawed, format="json", HTTP_IF_MATCH='"1"'
    )
    assert edited.status_code == 200, edited.json()

    latest = quality(api_client, generated_course.public_id).json()
    original = quality(api_client, generated_course.public_id, data={"version": 1}).json()
    missing = quality(api_client, generated_course.public_id, data={"version": 7})
    bad = quality(api_client, generated_course.public_id, data={"version": "first"})

    assert "ALL_OR_NONE_OF_THE_ABOVE" in {finding["code"] for finding in latest["findings"]}
    assert original["findings"] == []
    assert (missing.status_code, missing.json()) == (404, {"message": "Version not found.", "code": "NOT_FOUND"})
    assert (bad.status_code, bad.json()["code"]) == (400, "VALIDATION_ERROR")
