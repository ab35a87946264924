"""
Generation survives a model that follows the JSON schema but breaks the course's other rules at
random: what changes no meaning is mended, the rest is asked for again with the reasons, and a
course fails only when its plan or a chapter cannot be had.
"""

import random

import pytest

from courses import jobs
from courses.content import CourseContent
from courses.models import GenerationJob
from tests.support.samples import ALL_ADD_ONS
from tests.support.sloppy_model import SloppyModel

COURSES = 30
LANGUAGES = ["en-US", "pt-BR", "es-ES", "fr-FR", "de-DE"]


@pytest.fixture
def sloppy_model(settings):
    # Three answers in ten break a rule (told what broke, half as many): with three attempts a step,
    # about one course in five hundred cannot be had, so 29 of 30 holds whatever the seeds (tried
    # with sixteen: fifteen runs of 30 and one of 29).
    server = SloppyModel(break_probability=0.3).start()
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MAX_RETRIES = 0
    yield server
    server.stop()


def test_at_least_29_of_30_courses_complete_from_a_model_that_breaks_rules_at_random(
    sloppy_model, api_key, django_capture_on_commit_callbacks
):
    choices = random.Random(30)
    created = []
    for number in range(COURSES):
        with django_capture_on_commit_callbacks(execute=True):
            created.append(
                jobs.create_job(
                    api_key=api_key,
                    subject=f"Course number {number} on workplace safety",
                    format=choices.choice(["onepage", "classic"]),
                    language_id=LANGUAGES[number % len(LANGUAGES)],
                    outline=[f"Part {part}" for part in range(1, choices.randint(1, 6))] if number % 3 == 0 else [],
                    add_ons=choices.sample(ALL_ADD_ONS, choices.randint(3, len(ALL_ADD_ONS))),
                )
            )

    finished = GenerationJob.objects.filter(pk__in=[job.pk for job in created]).select_related("course")
    completed = [job for job in finished if job.status == GenerationJob.Status.COMPLETED]
    assert len(completed) >= 29, [(job.status, job.error_code) for job in finished]
    for job in completed:
        CourseContent.model_validate(job.course.content)  # raises if any rule is broken
    # The model really was sloppy, in many ways, and both remedies were used: answers mended in
    # place (more broken answers than retries) and answers asked for again with the reasons.
    assert sloppy_model.broken_answers >= 50
    assert set(sloppy_model.breaks) <= {
        "answer index outside the options",
        "repeated option",
        "too few items",
        "too many items",
        "empty text",
        "text over its limit",
        "spaces around a text",
    }
    assert len(sloppy_model.breaks) >= 5  # each kind on its own: tests/courses/generation/test_openai_generator.py
    assert 10 <= sloppy_model.retries < sloppy_model.broken_answers
