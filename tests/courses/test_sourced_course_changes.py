"""
A course built from sources after it is made: parts generated again from the same sources, edits held
to its sources and their passages, and version 1 documents that keep reading, rendering, exporting
and editing as before.
"""

import copy

import pytest
from django.test import TestCase

from accounts import services as account_services
from courses.content import CourseContent
from courses.models import Course, GenerationJob, JobSource
from sources.models import Passage, Source
from tests.support import grounded_documents as documents
from tests.support.errors import refusal
from tests.support.factories import CourseFactory
from tests.support.fake_openai import FakeOpenAI
from tests.support.grounded import ALL_ADD_ONS, add_source, assert_cited, make_course
from tests.support.keys import client_for
from tests.support.locks import changed_meanwhile
from tests.support.queues import no_worker, purge_task_queues
from tests.support.samples import course_document, in_version_1


@pytest.fixture(autouse=True)
def _offline(settings):
    settings.COURSE_GENERATOR = "offline"
    settings.YOUTUBE_API_KEY = ""


@pytest.fixture
def handbook(api_client) -> str:
    return add_source(api_client, documents.handbook_pdf(), "handbook.pdf")


@pytest.fixture
def policy(api_client) -> str:
    return add_source(api_client, documents.policy_docx(), "retention.docx")


@pytest.fixture
def sourced_course(api_client, handbook, policy) -> dict:
    return make_course(api_client, subject="Security at work", sources=[handbook, policy], addOns=ALL_ADD_ONS)


def regenerate(client, course_id: str, body: dict):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(f"/api/v1/courses/{course_id}/regenerate", body, format="json")


def edit(client, course_id: str, document: dict, *, version: int = 1, patch: bool = False):
    if patch:
        return client.patch(
            f"/api/v1/courses/{course_id}/content",
            document,
            format="json",
            HTTP_IF_MATCH=f'"{version}"',
            CONTENT_TYPE="application/merge-patch+json",
        )
    return client.put(
        f"/api/v1/courses/{course_id}/content", document, format="json", HTTP_IF_MATCH=f'"{version}"'
    )


def passage_text(passage_id: str) -> str:
    return Passage.objects.get(public_id=passage_id).text


# Generated again from the same sources --------------------------------------------------------


@pytest.mark.parametrize(
    "target", [{"target": "chapter", "chapter": 2}, {"target": "wrapup"}, {"target": "assessment"}]
)
def test_a_part_generated_again_is_built_from_the_courses_sources_and_cited(
    api_client, sourced_course, handbook, policy, target
):
    response = regenerate(api_client, sourced_course["id"], target)
    after = api_client.get(f"/api/v1/courses/{sourced_course['id']}").json()

    assert response.status_code == 202
    job = GenerationJob.objects.get(public_id=response.json()["jobId"])
    assert job.status == GenerationJob.Status.COMPLETED
    assert list(JobSource.objects.filter(job=job).values_list("source__public_id", flat=True)) == [
        handbook,
        policy,
    ]
    assert after["version"] == 2
    assert_cited(after["content"], source_ids=[handbook, policy])
    part = "chapters" if target["target"] == "chapter" else target["target"]
    assert after["content"][part] != sourced_course["content"][part]
    assert {**after["content"], part: None} == {**sourced_course["content"], part: None}


def test_a_chapter_generated_again_by_the_model_is_written_from_its_passages(
    api_client, sourced_course, settings, handbook, policy
):
    server = FakeOpenAI().start()
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = server.base_url
    settings.OPENAI_MAX_RETRIES = 0
    cited_before = {
        citation["passageId"]
        for lesson in sourced_course["content"]["chapters"][0]["lessons"]
        for citation in lesson["citations"]
    }
    try:
        regenerate(api_client, sourced_course["id"], {"target": "chapter", "chapter": 1, "instructions": "Shorter."})
    finally:
        server.stop()

    after = api_client.get(f"/api/v1/courses/{sourced_course['id']}").json()
    (request,) = server.requests
    prompt = request["messages"][1]["content"]
    assert all(passage_id in prompt for passage_id in cited_before)
    assert_cited(after["content"], source_ids=[handbook, policy])


def test_a_source_deleted_since_is_left_out_when_a_part_is_generated_again(
    api_client, sourced_course, handbook, policy
):
    assert api_client.delete(f"/api/v1/sources/{handbook}").status_code == 204

    response = regenerate(api_client, sourced_course["id"], {"target": "chapter", "chapter": 1})
    after = api_client.get(f"/api/v1/courses/{sourced_course['id']}").json()

    job = GenerationJob.objects.get(public_id=response.json()["jobId"])
    assert job.status == GenerationJob.Status.COMPLETED
    assert list(JobSource.objects.filter(job=job).values_list("source__public_id", flat=True)) == [policy]
    new_chapter = after["content"]["chapters"][0]
    assert {
        citation["sourceId"] for lesson in new_chapter["lessons"] for citation in lesson["citations"]
    } == {policy}
    assert after["content"]["sources"][0] == {**sourced_course["content"]["sources"][0], "deleted": True}
    # The chapters that were not written again keep their citations of the deleted source.
    assert after["content"]["chapters"][1:] == sourced_course["content"]["chapters"][1:]


def test_a_course_whose_sources_are_all_deleted_cannot_be_generated_again_in_part(
    api_client, sourced_course, handbook, policy
):
    for source_id in (handbook, policy):
        assert api_client.delete(f"/api/v1/sources/{source_id}").status_code == 204

    response = regenerate(api_client, sourced_course["id"], {"target": "wrapup"})

    assert response.status_code == 400
    assert refusal(response) == {
        "message": "target: every source this course was built from has been deleted, so no part of it can be "
        "generated again from them; edit the course instead.",
        "code": "VALIDATION_ERROR",
    }
    assert not GenerationJob.objects.filter(regenerated_course__public_id=sourced_course["id"]).exists()


def in_use(job_id: str) -> dict:
    return {
        "message": f"Job {job_id} builds from this source: delete the source once that job has ended.",
        "code": "SOURCE_IN_USE",
    }


def test_the_sources_of_a_part_asked_for_again_cannot_be_deleted_before_a_worker_writes_it(
    api_client, sourced_course, handbook, policy
):
    with TestCase.captureOnCommitCallbacks(execute=False) as queued:
        asked = api_client.post(
            f"/api/v1/courses/{sourced_course['id']}/regenerate", {"target": "wrapup"}, format="json"
        )

    refused = [api_client.delete(f"/api/v1/sources/{source_id}") for source_id in (handbook, policy)]

    assert [(response.status_code, response.json()) for response in refused] == [(409, in_use(asked.json()["jobId"]))] * 2
    for callback in queued:  # a worker takes the job now: written from both sources
        callback()
    job = api_client.get(asked.json()["pollUrl"]).json()
    after = api_client.get(f"/api/v1/courses/{sourced_course['id']}").json()
    assert job["status"] == "completed"
    assert after["version"] == 2
    assert [source.get("deleted", False) for source in after["content"]["sources"]] == [False, False]
    assert api_client.delete(f"/api/v1/sources/{handbook}").status_code == 204  # the job has ended


# Edits ------------------------------------------------------------------------------------------


def test_the_document_as_read_can_be_put_back_even_with_a_deleted_source(api_client, sourced_course, handbook):
    api_client.delete(f"/api/v1/sources/{handbook}")
    read = api_client.get(f"/api/v1/courses/{sourced_course['id']}").json()
    changed = copy.deepcopy(read["content"])
    changed["name"] = "Security at work, 2nd edition"

    response = edit(api_client, sourced_course["id"], changed)

    assert response.status_code == 200, response.json()
    assert response.json()["content"] == {**read["content"], "name": "Security at work, 2nd edition"}
    stored = Course.objects.get(public_id=sourced_course["id"]).content
    assert [source["deleted"] for source in stored["sources"]] == [
        False,
        False,
    ]  # the truth is applied on reading


def test_an_edit_may_cite_another_quote_of_the_courses_passages_which_is_kept_verbatim_with_its_page(
    api_client, sourced_course
):
    changed = copy.deepcopy(sourced_course["content"])
    citation = changed["chapters"][0]["lessons"][0]["citations"][0]
    text = passage_text(citation["passageId"])
    last_sentence = text.split(". ")[-1].rstrip(".")
    # Written with other spacing and typographic quotes: the passage's own text is what is kept.
    citation["quote"] = "  " + last_sentence.replace(" ", "   ").replace("'", "’") + "  "
    citation["page"] = 999

    response = edit(api_client, sourced_course["id"], changed)

    assert response.status_code == 200, response.json()
    kept = response.json()["content"]["chapters"][0]["lessons"][0]["citations"][0]
    assert kept["quote"] == last_sentence
    assert kept["quote"] in text
    passage = Passage.objects.get(public_id=citation["passageId"])
    assert passage.page <= kept["page"] <= passage.page_end


@pytest.mark.parametrize(
    "change, message",
    [
        (
            lambda citation, _: citation.update(quote="Nobody has to follow any of these rules."),
            "does not contain the quote “Nobody has to follow any of these rules.”",
        ),
        (
            lambda citation, other: citation.update(passageId=other),
            "does not contain the quote",
        ),
        (
            lambda citation, _: citation.update(passageId="psg_" + "Z" * 22),
            "is not a passage of",
        ),
        (
            lambda citation, _: citation.update(quote="must"),
            "is too short to show where the statement comes from",
        ),
    ],
    ids=["quote not in the passage", "quote of another passage", "unknown passage", "quote too short"],
)
def test_an_edit_cannot_cite_what_the_passage_does_not_say(api_client, sourced_course, change, message):
    changed = copy.deepcopy(sourced_course["content"])
    lesson = changed["chapters"][1]["lessons"][1]
    other = changed["chapters"][0]["lessons"][0]["citations"][0]["passageId"]
    change(lesson["citations"][0], other)

    response = edit(api_client, sourced_course["id"], changed)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    assert body["message"].startswith("content/chapters/1/lessons/1/citations/0: ")
    assert message in body["message"]
    assert Course.objects.get(public_id=sourced_course["id"]).version == 1


def test_an_edit_may_remove_citations(api_client, sourced_course):
    response = edit(
        api_client,
        sourced_course["id"],
        {
            "chapters": [
                {**chapter, "lessons": [{**lesson, "citations": []} for lesson in chapter["lessons"]]}
                for chapter in sourced_course["content"]["chapters"]
            ]
        },
        patch=True,
    )

    assert response.status_code == 200, response.json()
    assert all(
        not lesson["citations"]
        for chapter in response.json()["content"]["chapters"]
        for lesson in chapter["lessons"]
    )


def test_an_edit_cannot_add_remove_or_change_the_courses_sources(api_client, sourced_course, stranger_client):
    other = add_source(stranger_client, documents.policy_docx(), "theirs.docx")
    sources = sourced_course["content"]["sources"]
    attempts = [
        [*sources, {**sources[0], "id": other}],
        sources[:1],
        list(reversed(sources)),
    ]

    answers = [
        edit(api_client, sourced_course["id"], {**sourced_course["content"], "sources": changed}).json()
        for changed in attempts
    ]

    assert all(answer["code"] == "VALIDATION_ERROR" for answer in answers)
    added, removed, reordered = (answer["message"] for answer in answers)
    assert added.startswith("content/sources: a course's sources are the documents it was built from")
    assert removed == (  # its citations would name a source the document no longer lists
        f"content: Value error, a citation names source {sources[1]['id']}, which is not among the sources"
    )
    assert reordered == added
    assert Course.objects.get(public_id=sourced_course["id"]).version == 1


def test_what_an_edit_says_of_a_source_is_replaced_by_the_services_record(api_client, sourced_course):
    changed = copy.deepcopy(sourced_course["content"])
    changed["sources"][0].update(name="Something else entirely", deleted=True, title="Made up")

    response = edit(api_client, sourced_course["id"], changed)

    assert response.status_code == 200
    assert response.json()["content"]["sources"] == sourced_course["content"]["sources"]


def test_a_citation_of_a_source_not_among_the_courses_is_refused_by_the_schema(
    api_client, sourced_course, stranger_client
):
    other = add_source(stranger_client, documents.policy_docx(), "theirs.docx")
    changed = copy.deepcopy(sourced_course["content"])
    changed["wrapup"]["citations"][0]["sourceId"] = other

    response = edit(api_client, sourced_course["id"], changed)

    assert response.status_code == 400
    assert response.json()["message"] == (
        f"content: Value error, a citation names source {other}, which is not among the sources"
    )


def test_a_citation_already_there_is_kept_but_a_new_one_of_a_deleted_source_is_refused(
    api_client, sourced_course, handbook
):
    api_client.delete(f"/api/v1/sources/{handbook}")
    read = api_client.get(f"/api/v1/courses/{sourced_course['id']}").json()["content"]
    handbook_citations = [
        (c, n, citation)
        for c, chapter in enumerate(read["chapters"])
        for n, lesson in enumerate(chapter["lessons"])
        for citation in lesson["citations"]
        if citation["sourceId"] == handbook
    ]
    (c, n, first), (_, _, second) = handbook_citations[0], handbook_citations[1]
    moved = copy.deepcopy(read)
    moved["chapters"][c]["lessons"][n]["citations"].append(second)  # an existing citation, elsewhere
    fresh = copy.deepcopy(read)
    fresh["chapters"][c]["lessons"][n]["citations"][0] = {
        **first,
        "quote": first["quote"][:40].rsplit(" ", 1)[0],
    }

    kept = edit(api_client, sourced_course["id"], moved)
    refused = edit(api_client, sourced_course["id"], fresh, version=2)

    assert kept.status_code == 200, kept.json()
    assert refused.status_code == 400
    assert f"is not a passage of {handbook}, or that source has been deleted" in refused.json()["message"]


def test_a_course_built_from_sources_keeps_its_schema_version(api_client, sourced_course):
    response = edit(api_client, sourced_course["id"], {**sourced_course["content"], "schemaVersion": 2})

    assert response.status_code == 400
    assert response.json()["message"].startswith("content/schemaVersion: Input should be 3")


# Version 1 documents ----------------------------------------------------------------------------


@pytest.fixture
def old_course(api_key):
    """A course stored before schema version 2: its document, in snake_case, has no version or sources."""
    return CourseFactory(api_key=api_key, content=in_version_1(course_document()), schema_version=1)


def test_a_version_1_document_reads_as_version_3_without_sources(api_client, old_course):
    read = api_client.get(f"/api/v1/courses/{old_course.public_id}").json()

    assert CourseContent.model_validate(read["content"]).model_dump(mode="json") == course_document()
    assert read["content"]["schemaVersion"] == 3
    assert "sources" not in read["content"]


def test_a_version_1_document_renders_and_exports_without_sources(api_client, client, old_course):
    page = client.get(f"/go/{old_course.public_id}")
    exported = api_client.post(
        f"/api/v1/courses/{old_course.public_id}/export", {"format": "cmi5"}, format="json"
    )

    assert page.status_code == 200
    assert 'id="sources"' not in page.content.decode()
    assert "data-cite" not in page.content.decode()
    assert exported.status_code == 200


def test_a_version_1_document_is_edited_into_version_3(api_client, old_course):
    patched = edit(api_client, old_course.public_id, {"name": "Intro to SQL, revised"}, patch=True)
    put = edit(
        api_client,
        old_course.public_id,
        {k: v for k, v in patched.json()["content"].items() if k != "schemaVersion"},
        version=2,
    )

    assert patched.status_code == 200, patched.json()
    assert put.status_code == 200, put.json()
    for answer in (patched.json(), put.json()):
        assert answer["content"]["schemaVersion"] == 3
        assert answer["content"]["sources"] == []
        assert answer["content"]["chapters"][0]["lessons"][0]["citations"] == []


def test_a_version_1_document_cannot_gain_citations(api_client, old_course):
    current = api_client.get(f"/api/v1/courses/{old_course.public_id}").json()["content"]
    lessons = current["chapters"][0]["lessons"]
    citation = {
        "sourceId": "src_" + "A" * 22,
        "passageId": "psg_" + "A" * 22,
        "page": 1,
        "quote": "Some words here.",
    }
    patch = {
        "chapters": [
            {
                **current["chapters"][0],
                "lessons": [{**lessons[0], "citations": [citation]}, lessons[1]],
            },
            *current["chapters"][1:],
        ]
    }

    response = edit(api_client, old_course.public_id, patch, patch=True)

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert "which is not among the sources" in response.json()["message"]


# A source deleted while a job is made from it -------------------------------------------------------


def deleted_meanwhile(plain_key: str, source_id: str, *, after_query_with: str, request):
    """`request()`, with the source deleted by the same key from another connection right after the
    query given (see tests.support.locks); both answers."""
    return changed_meanwhile(
        after_query_with=after_query_with,
        change=lambda: client_for(plain_key).delete(f"/api/v1/sources/{source_id}"),
        request=request,
    )


def create_from(client, *source_ids: str):
    body = {"subject": "Security at work", "sources": list(source_ids)}
    return client.post("/api/v1/courses", body, format="json")


def sources_shown(client, course_id: str) -> list[tuple[str, bool]]:
    course = client.get(f"/api/v1/courses/{course_id}").json()
    return [(source["id"], source.get("deleted", False)) for source in course["content"]["sources"]]


@pytest.mark.django_db(transaction=True)
def test_a_source_deleted_as_a_course_is_created_from_it_waits_for_the_job_and_is_refused(
    api_client, plain_key, handbook, policy, empty_task_queue
):
    # The deletion comes right after the create has found its sources (and holds them): it waits
    # for the create, then finds its job, which no worker has taken yet.
    with no_worker():
        created, deleted = deleted_meanwhile(
            plain_key,
            handbook,
            after_query_with='"sources_source"',
            request=lambda: create_from(api_client, handbook, policy),
        )
    purge_task_queues()

    assert created.status_code == 202
    assert (deleted.status_code, deleted.json()) == (409, in_use(created.json()["jobId"]))
    assert Source.objects.filter(public_id__in=[handbook, policy]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_course_created_from_a_source_as_it_is_deleted_waits_and_is_refused_with_no_credit_spent(
    api_client, plain_key, account, handbook, policy
):
    # The create comes once the deletion holds the source's row: it waits for the deletion, then
    # finds the source gone.
    deleted, created = changed_meanwhile(
        after_query_with='"sources_source"."id" DESC LIMIT 1 FOR UPDATE',  # the source's row, held
        change=lambda: create_from(client_for(plain_key), handbook, policy),
        request=lambda: api_client.delete(f"/api/v1/sources/{handbook}"),
    )

    assert deleted.status_code == 204
    assert (created.status_code, refusal(created)) == (
        400, {"message": f"sources[0]: {handbook} is not a source of this API key.", "code": "VALIDATION_ERROR"}
    )
    assert not GenerationJob.objects.exists()
    assert account_services.usage_for(account=account).used == 0


@pytest.mark.django_db(transaction=True)
def test_a_source_deleted_as_its_course_is_stored_is_refused_since_the_job_still_runs(
    api_client, plain_key, handbook, policy
):
    created, deleted = deleted_meanwhile(
        plain_key,
        handbook,
        after_query_with='FROM "sources_source" WHERE "sources_source"."public_id" IN',
        request=lambda: create_from(api_client, handbook, policy),
    )

    job = api_client.get(created.json()["pollUrl"]).json()
    assert (deleted.status_code, deleted.json()) == (409, in_use(created.json()["jobId"]))
    assert job["status"] == "completed"
    assert sources_shown(api_client, job["course"]["id"]) == [(handbook, False), (policy, False)]


@pytest.mark.django_db(transaction=True)
def test_a_source_deleted_as_a_part_is_asked_for_again_waits_for_the_job_and_is_refused(
    api_client, plain_key, sourced_course, handbook, policy, empty_task_queue
):
    # The regeneration holds the course, then its sources; a deletion takes them in the same order,
    # so it waits rather than deadlocking with it, then finds the job.
    with no_worker():
        regenerated, deleted = deleted_meanwhile(
            plain_key,
            handbook,
            after_query_with='"sources_source"',
            request=lambda: regenerate(api_client, sourced_course["id"], {"target": "chapter", "chapter": 1}),
        )
    purge_task_queues()

    assert regenerated.status_code == 202
    assert (deleted.status_code, deleted.json()) == (409, in_use(regenerated.json()["jobId"]))
    assert sources_shown(api_client, sourced_course["id"]) == [(handbook, False), (policy, False)]


@pytest.mark.django_db(transaction=True)
def test_a_source_deleted_while_a_part_is_written_again_from_it_is_refused(
    api_client, plain_key, sourced_course, handbook, policy
):
    # The job runs and reads the sources' passages when the client deletes one.
    regenerated, deleted = deleted_meanwhile(
        plain_key,
        handbook,
        after_query_with='"sources_passage"."heading_path"',
        request=lambda: regenerate(api_client, sourced_course["id"], {"target": "chapter", "chapter": 1}),
    )

    assert (deleted.status_code, deleted.json()) == (409, in_use(regenerated.json()["jobId"]))
    assert api_client.get(regenerated.json()["pollUrl"]).json()["status"] == "completed"
    assert sources_shown(api_client, sourced_course["id"]) == [(handbook, False), (policy, False)]
