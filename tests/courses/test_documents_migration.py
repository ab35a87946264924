"""The migration to schema version 3 converts every stored document to camelCase, and back."""

import importlib
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from courses import content
from courses.models import CourseVersion, GenerationCheckpoint, GenerationJob
from tests.support import samples
from tests.support.factories import CourseFactory, GenerationJobFactory

NAME = next(
    name
    for name in MigrationLoader(None).disk_migrations
    if name[0] == "courses" and name[1].endswith("_course_documents_in_camelcase")
)
MIGRATION = importlib.import_module(f"courses.migrations.{NAME[1]}")
BEFORE = next(dependency for dependency in MIGRATION.Migration.dependencies if dependency[0] == "courses")
SNAKE_CASE = {camel: snake for snake, camel in content.VERSION_2_KEYS.items()}
SOURCE, PASSAGE = f"src_{'a' * 22}", f"psg_{'a' * 22}"


def stored(table: str, column: str, pk: int):
    """A row's JSON as the database holds it (a model's field would read it as version 3)."""
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT "{column}" FROM "{table}" WHERE id = %s', [pk])
        (value,) = cursor.fetchone()
    return json.loads(value) if isinstance(value, str) else value


def stored_courses(courses) -> dict:
    """Each course's document, that of its version, its digest and its schema version, as stored."""
    found = {}
    for course in courses:
        with connection.cursor() as cursor:
            cursor.execute("SELECT content_digest, schema_version FROM courses_course WHERE id = %s", [course.pk])
            digest, version = cursor.fetchone()
        (version_id,) = CourseVersion.objects.filter(course=course).values_list("pk", flat=True)
        document = stored("courses_course", "content", course.pk)
        found[course.pk] = (document, stored("courses_courseversion", "content", version_id), digest, version)
    return found


def stored_checkpoints(checkpoints) -> dict:
    return {checkpoint.pk: stored("courses_generationcheckpoint", "data", checkpoint.pk) for checkpoint in checkpoints}


@pytest.fixture
def executor(monkeypatch):
    # Batches of two rows: the three courses below take two batches, one of them short.
    monkeypatch.setattr(MIGRATION, "BATCH", 2)
    yield MigrationExecutor(connection)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_every_document_goes_back_to_snake_case_and_forward_to_camel_case_as_it_was(executor):
    cited = samples.course_document(add_ons=["wrapup", "assessment"])
    cited["sources"] = [
        {"id": SOURCE, "name": "Handbook.pdf", "title": None, "mediaType": "application/pdf", "url": None,
         "deleted": False}
    ]
    cited["wrapup"]["citations"] = [{"sourceId": SOURCE, "passageId": PASSAGE, "page": 3, "quote": "Joins match."}]
    # A version 1 document as the migration leaves it: in version 3, without sources.
    once_version_1 = content.upgraded(samples.in_version_1(samples.course_document()))
    plain = samples.course_document()
    courses = [CourseFactory(content=document) for document in (cited, once_version_1, plain)]
    job = GenerationJobFactory(status=GenerationJob.Status.RUNNING)
    chapter = content.Chapter.model_validate(cited["chapters"][0]).model_dump(mode="json")
    checkpoints = [
        GenerationCheckpoint.objects.create(job=job, step=step, data=data)
        for step, data in [
            ("chapter:0", {"kind": "chapter", "chapter": chapter, "video_queries": ["joins"]}),
            ("assessment", {"kind": "assessment", "value": cited["assessment"]}),
            ("plan", {"kind": "text", "text": "A plan"}),
        ]
    ]
    before, checkpoints_before = stored_courses(courses), stored_checkpoints(checkpoints)

    executor.migrate([BEFORE])
    backwards, checkpoints_backwards = stored_courses(courses), stored_checkpoints(checkpoints)
    MigrationExecutor(connection).migrate([NAME])
    forwards, checkpoints_forwards = stored_courses(courses), stored_checkpoints(checkpoints)

    in_version_1 = {**samples.in_version_1(samples.course_document()), "schema_version": 1}
    expected = [samples.in_version_2(cited), in_version_1, samples.in_version_2(plain)]
    assert list(backwards.values()) == [
        (document, document, content.digest(document), document["schema_version"]) for document in expected
    ]
    assert backwards[courses[0].pk][0]["wrapup"]["citations"][0]["passage_id"] == PASSAGE
    assert checkpoints_backwards == {
        pk: content.renamed_keys(data, SNAKE_CASE) for pk, data in checkpoints_before.items()
    }
    assert checkpoints_backwards[checkpoints[1].pk]["value"]["questions"][0]["correct_index"] == 0
    assert [row[:2] for row in forwards.values()] == [row[:2] for row in before.values()]
    assert [(digest, version) for _, _, digest, version in forwards.values()] == [
        (content.digest(document), 3) for document in (cited, once_version_1, plain)
    ]
    assert checkpoints_forwards == checkpoints_before
