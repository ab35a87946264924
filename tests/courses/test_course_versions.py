"""Clients read a course, edit it with If-Match, and list and read its versions."""

import copy
import io
import json
import threading
import urllib.parse
import zipfile

import pydantic
import pytest
from django.db import connection
from django.test import Client
from django.utils.text import slugify

from courses import content
from courses.models import Course, CourseVersion
from tests.support import samples
from tests.support.errors import refusal
from tests.support.factories import CourseFactory
from tests.support.keys import client_for
from tests.support.locks import changed_meanwhile

NOT_FOUND = {"message": "Course not found.", "code": "NOT_FOUND"}


def url(course, tail: str = "") -> str:
    return f"/api/v1/courses/{course.public_id}{tail}"


def patch(client, course, body, if_match='"1"'):
    headers = {} if if_match is None else {"HTTP_IF_MATCH": if_match}
    return client.patch(url(course, "/content"), json.dumps(body), content_type="application/merge-patch+json", **headers)


def put(client, course, document, if_match='"1"'):
    headers = {} if if_match is None else {"HTTP_IF_MATCH": if_match}
    return client.put(url(course, "/content"), json.dumps(document), content_type="application/json", **headers)


# Reading --------------------------------------------------------------------------------------


def test_reading_a_course_gives_its_object_version_and_whole_document(api_client, course):
    response = api_client.get(url(course))

    body = response.json()
    assert response.status_code == 200
    assert response["ETag"] == '"1"'
    assert list(body) == ["id", "name", "headline", "format", "languageId", "shareUrl", "createdAt", "version", "content"]
    assert (body["id"], body["version"]) == (course.public_id, 1)
    assert body["content"] == course.content
    assert body["content"]["assessment"]["questions"][0]["correctIndex"] is not None  # answers included


def test_reading_again_with_the_etag_is_a_304(api_client, course):
    response = api_client.get(url(course), HTTP_IF_NONE_MATCH='"1"')

    assert response.status_code == 304
    assert response["ETag"] == '"1"'
    assert response.content == b""


# Every query holds it: the change comes right after the request's first query, its lookup.
ANY_QUERY = ""


@pytest.mark.django_db(transaction=True)
def test_an_edit_committed_while_a_read_is_answered_never_pairs_its_document_with_the_old_version(
    plain_key, api_key
):
    course = CourseFactory(api_key=api_key)
    reader, editor = client_for(plain_key), client_for(plain_key)
    reader.get("/api/v1/courses/jobs/job_0000000000000000000000")  # the key's last use is written now

    answer, edited = changed_meanwhile(
        after_query_with=ANY_QUERY,
        change=lambda: patch(editor, course, {"name": "Edited meanwhile"}),
        request=lambda: reader.get(url(course)),
    )

    body = answer.json()
    assert edited.status_code == 200
    assert (answer["ETag"], body["version"], body["name"], body["content"]["name"]) == (
        '"2"', 2, "Edited meanwhile", "Edited meanwhile"
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("tail", ["", "/quality", "/versions"])
def test_a_course_deleted_while_a_read_is_answered_is_404(plain_key, api_key, tail):
    course = CourseFactory(api_key=api_key)
    reader, owner = client_for(plain_key), client_for(plain_key)
    reader.get("/api/v1/courses/jobs/job_0000000000000000000000")

    answer, deleted = changed_meanwhile(
        after_query_with=ANY_QUERY,
        change=lambda: owner.delete(url(course)),
        request=lambda: reader.get(url(course, tail)),
    )

    assert deleted.status_code == 204
    assert (answer.status_code, answer.json()) == (404, NOT_FOUND)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("format", ["onepage", "classic"])
def test_an_edit_committed_while_a_page_is_made_gives_the_page_the_etag_of_what_it_shows(plain_key, api_key, format):
    course = CourseFactory(api_key=api_key, format=format)
    editor, browser = client_for(plain_key), Client()

    page, edited = changed_meanwhile(
        after_query_with=ANY_QUERY,
        change=lambda: patch(editor, course, {"name": "Edited meanwhile"}),
        request=lambda: browser.get(f"/go/{course.public_id}"),
    )
    again = browser.get(f"/go/{course.public_id}", HTTP_IF_NONE_MATCH=page["ETag"])

    assert edited.status_code == 200
    assert "Edited meanwhile" in page.content.decode()
    assert again.status_code == 304  # the page's ETag is the course's as it is now


@pytest.mark.django_db(transaction=True)
def test_a_course_deleted_while_its_page_is_made_is_gone(plain_key, api_key):
    course = CourseFactory(api_key=api_key)
    owner = client_for(plain_key)

    page, deleted = changed_meanwhile(
        after_query_with=ANY_QUERY,
        change=lambda: owner.delete(url(course)),
        request=lambda: Client().get(f"/go/{course.public_id}"),
    )

    assert (deleted.status_code, page.status_code) == (204, 410)


@pytest.mark.parametrize(
    ("if_none_match", "status"),
    [('"1"', 304), ('W/"1"', 304), ('"2", "1"', 304), ("*", 304), ('"2"', 200), ('"11"', 200), ("1", 200)],
)
def test_if_none_match_is_compared_as_http_says(api_client, course, if_none_match, status):
    response = api_client.get(url(course), HTTP_IF_NONE_MATCH=if_none_match)

    assert (response.status_code, response["ETag"]) == (status, '"1"')


def test_reading_a_course_costs_at_most_three_queries_whatever_its_size(
    api_client, api_key, django_assert_max_num_queries, django_assert_num_queries
):
    big = CourseFactory(api_key=api_key, add_ons=["practical-exercises", "wrapup", "assessment", "articles"])
    Course.objects.filter(pk=big.pk).update(content={**big.content, "introduction": "x " * 9000})
    api_client.get("/api/v1/courses/jobs/job_0000000000000000000000")  # the key's last use is written now

    with django_assert_max_num_queries(3):  # the key, the course, then its document
        first = api_client.get(url(big))
    with django_assert_num_queries(2):  # the key, the course: its JSON is stored
        again = api_client.get(url(big))

    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert again.json()["content"]["introduction"] == "x " * 9000


@pytest.mark.parametrize("course_id", ["cou_x", "x" * 300, "cou_%00", "..", "cou_' OR 1=1 --"])
def test_odd_course_ids_are_404(api_client, course_id):
    response = api_client.get(f"/api/v1/courses/{course_id}")

    assert response.status_code == 404
    assert response.json() == NOT_FOUND


@pytest.mark.parametrize("tail", ["", "/versions", "/versions/1"])
def test_another_key_sees_no_course_and_no_version(account, course, stranger_client, tail):
    other_key_of_the_same_account = client_for(__import__("accounts.services", fromlist=["issue_key"]).issue_key(account=account))

    for client in (stranger_client, other_key_of_the_same_account):
        response = client.get(url(course, tail))

        assert response.status_code == 404
        assert response.json() == NOT_FOUND


def test_reads_have_their_own_rate_limit(api_client, course, settings):
    settings.RATE_LIMIT_READ = 2

    statuses = [api_client.get(url(course)).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert api_client.get(f"/api/v1/courses/jobs/{course.job.public_id}").status_code == 200  # poll is apart


# Editing --------------------------------------------------------------------------------------


def test_a_merge_patch_fixes_a_title_and_makes_version_2(api_client, course):
    response = patch(api_client, course, {"name": "SQL for analysts"})

    course.refresh_from_db()
    assert response.status_code == 200
    assert response["ETag"] == '"2"'
    assert response.json()["name"] == "SQL for analysts" == course.name == course.content["name"]
    assert course.version == 2
    assert list(course.versions.values_list("number", "source", "changed")) == [
        (2, "edited", "title"),
        (1, "generated", "content"),
    ]


def test_a_patch_of_one_chapter_says_which_chapter_changed(api_client, course):
    chapters = copy.deepcopy(course.content["chapters"])
    chapters[1]["title"] = "Joins, properly"

    patch(api_client, course, {"chapters": chapters})

    assert course.versions.get(number=2).changed == "chapter 2"


def test_a_whole_document_replaces_the_content(api_client, course):
    document = copy.deepcopy(course.content)
    document["introduction"] = "A shorter introduction."

    response = put(api_client, course, document)

    assert response.status_code == 200
    assert response.json()["content"]["introduction"] == "A shorter introduction."
    assert course.versions.get(number=2).changed == "introduction"


def test_an_edit_holds_at_most_ten_thousand_characters_that_open_links_and_emphasis(api_client, course):
    # Each makes the renderer look ahead for its partner: a course edited to be made of `*[` took a
    # web process most of a minute to export, at every export, and to show its page the first time.
    document = copy.deepcopy(course.content)
    lessons = [lesson for chapter in document["chapters"] for lesson in chapter["lessons"]]
    for lesson in lessons:
        lesson["body"] = "*[" * (5000 // len(lessons)) + "]"
    document["introduction"] = "_" * (10_000 - 5000 // len(lessons) * 2 * len(lessons)) + " Welcome."

    at_the_limit = put(api_client, course, document)
    document["introduction"] += "~"
    over_it = put(api_client, course, document, if_match='"2"')

    assert at_the_limit.status_code == 200
    assert refusal(over_it) == {
        "message": "content: its Markdown may hold at most 10000 of the characters that open links and emphasis "
        "([ * _ ~) in all, unescaped; it holds 10001.",
        "code": "VALIDATION_ERROR",
    }


def test_an_edit_holds_at_most_twenty_thousand_lines_of_markdown(api_client, course):
    # Each may start a block, which costs the renderer far more than a character: a course edited to
    # be made of one-character headings took a web process ten seconds to export, at every export.
    document = copy.deepcopy(course.content)
    document["introduction"] = "Welcome.\r\nLine two.\rLine three."  # CommonMark's three line breaks
    document["wrapup"]["summary"] = "Summary."
    document["agreement"]["statement"] = "I agree."
    for chapter in document["chapters"]:
        chapter["article"]["body"] = "An article."
    bodies = [lesson for chapter in document["chapters"] for lesson in chapter["lessons"]]
    others = 3 + 1 + 1 + len(document["chapters"])
    lines = [(20_000 - others) // len(bodies)] * len(bodies)
    lines[0] += 20_000 - others - sum(lines)
    for lesson, count in zip(bodies, lines, strict=True):
        lesson["body"] = "\n".join(["#"] * count)

    at_the_limit = put(api_client, course, document)
    bodies[1]["body"] += "\n#"
    over_it = put(api_client, course, document, if_match='"2"')
    document["introduction"] = "Welcome."
    back_under_it = put(api_client, course, document, if_match='"2"')

    assert at_the_limit.status_code == 200
    assert refusal(over_it) == {
        "message": "content: its Markdown may hold at most 20000 lines in all; it holds 20001.",
        "code": "VALIDATION_ERROR",
    }
    assert back_under_it.status_code == 200
    bodies[2]["body"] += "\n#\n#"
    Course.objects.filter(pk=course.pk).update(content=document)  # over it, from before the rule
    assert patch(api_client, course, {"name": "Renamed"}, if_match='"3"').status_code == 200


def test_escaped_openers_are_not_counted_and_a_course_over_the_limit_can_still_be_edited(api_client, course):
    # Text copied from sources escapes them (\*), which costs the renderer little. A course over
    # the limit from before it existed takes any edit that does not add to them.
    document = copy.deepcopy(course.content)
    document["introduction"] = "\\*" * 6000
    document["chapters"][0]["lessons"][0]["body"] = "\\_" * 5000
    assert put(api_client, course, document).status_code == 200
    # An escaped backslash escapes nothing after it: these are 11,000 openers.
    document["introduction"] = "\\\\[" * 6000
    document["chapters"][0]["lessons"][0]["body"] = "\\\\*" * 5000
    refused = put(api_client, course, document, if_match='"2"').json()["message"]
    assert int(refused.removesuffix(".").rsplit(" ", 1)[1]) >= 11_000

    document["introduction"] = "*" * 10_001
    Course.objects.filter(pk=course.pk).update(content=document)
    assert patch(api_client, course, {"name": "Renamed"}, if_match='"2"').status_code == 200
    assert patch(api_client, course, {"introduction": "*" * 10_002}, if_match='"3"').status_code == 400


def compact_json_size(document) -> int:
    return len(json.dumps(document, separators=(",", ":")))  # every character beyond ASCII escaped


def test_an_edit_may_bring_the_document_to_900_kb_so_that_every_course_read_can_be_sent_back(
    api_client, course
):
    # The schema's lengths allow megabytes, but a body holds at most 1 MiB: a course edited larger
    # could be read, and never sent back whole. A character beyond ASCII counts as its escape, as
    # Python's json writes it (an emoji, a surrogate pair, takes 12 bytes).
    document = copy.deepcopy(course.content)
    lessons = [lesson for chapter in document["chapters"] for lesson in chapter["lessons"]]
    for lesson in lessons[:3]:
        lesson["body"] = "\N{GRINNING FACE}" * 20_000
    lessons[3]["body"] = ""
    emoji, ascii_left = divmod(900_000 - compact_json_size(document), 12)
    lessons[3]["body"] = "\N{GRINNING FACE}" * emoji + "a" * ascii_left
    assert compact_json_size(document) == 900_000

    at_the_limit = put(api_client, course, document)
    read = api_client.get(url(course)).json()
    sent_back = api_client.put(
        url(course, "/content"), json.dumps(read["content"], indent=2), content_type="application/json",
        HTTP_IF_MATCH='"2"',
    )
    document["introduction"] += "!"
    over_it = put(api_client, course, document, if_match='"2"')

    assert at_the_limit.status_code == 200
    assert len(json.dumps(read["content"], indent=2)) <= 1024 * 1024
    assert (sent_back.status_code, sent_back.json()["version"]) == (200, 2)  # nothing changed
    assert refusal(over_it) == {
        "message": "content: the document may take at most 900000 bytes as compact JSON with characters "
        "beyond ASCII escaped; it takes 900001.",
        "code": "VALIDATION_ERROR",
    }


def test_a_course_over_the_size_limit_takes_any_edit_that_does_not_make_it_larger(api_client, course):
    document = copy.deepcopy(course.content)
    for chapter in document["chapters"]:
        for lesson in chapter["lessons"]:
            lesson["body"] = "\N{GRINNING FACE}" * 20_000
    Course.objects.filter(pk=course.pk).update(content=document)  # from before the limit

    assert patch(api_client, course, {"name": "Renamed"}).status_code == 200
    larger = patch(api_client, course, {"introduction": document["introduction"] + " More."}, if_match='"2"')
    assert larger.status_code == 400


def test_an_edit_without_if_match_is_428(api_client, course):
    response = patch(api_client, course, {"name": "X"}, if_match=None)

    assert response.status_code == 428
    assert response.json()["code"] == "PRECONDITION_REQUIRED"


def test_an_edit_of_another_keys_course_is_404_with_or_without_if_match(course, stranger_client):
    # It was a 428 without If-Match: the course was looked up after the header.
    for if_match in (None, '"1"'):
        assert patch(stranger_client, course, {"name": "X"}, if_match=if_match).json() == NOT_FOUND


def test_an_edit_that_changes_nothing_makes_no_version_whatever_keys_the_stored_document_lacks(
    api_client, course
):
    # Stored before schema versions, `objectives`, sources and citations existed, in snake_case: the
    # edit writes their defaults in camelCase, the stored document has no keys for them, and yet
    # nothing changed.
    stored = samples.in_version_1(course.content)
    for chapter in stored["chapters"]:
        chapter.pop("objectives", None)
    Course.objects.filter(pk=course.pk).update(content=stored)

    as_read = api_client.get(url(course)).json()["content"]
    responses = [patch(api_client, course, {}), put(api_client, course, as_read)]

    assert [(response.status_code, response["ETag"]) for response in responses] == [(200, '"1"')] * 2
    assert course.versions.count() == 1


def test_a_course_stored_with_what_the_rules_now_refuse_can_still_be_edited(api_client, course):
    # A blank title (from before the rule, or from a model) and two options that say the same: an
    # edit that leaves them as they are is no change, or changes what it names; it was a 400 or a 500.
    stored = copy.deepcopy(course.content)
    stored["chapters"][0]["title"] = "\u200b"
    Course.objects.filter(pk=course.pk).update(content=stored)
    as_read = api_client.get(url(course)).json()["content"]
    unchanged = [patch(api_client, course, {}), put(api_client, course, as_read)]
    renamed = patch(api_client, course, {"name": "Renamed"})
    stored = Course.objects.get(pk=course.pk).content
    questions = stored["assessment"]["questions"]
    questions[0]["options"][1] = questions[0]["options"][0] + " "
    Course.objects.filter(pk=course.pk).update(content=stored)
    questions[0] = dict(questions[0], options=["One", "Two", "Three"], correctIndex=0)
    fixed = patch(api_client, course, {"assessment": {"questions": questions}}, if_match='"2"')
    blank_written = patch(api_client, course, {"headline": "\u2060"}, if_match='"3"')

    assert [(response.status_code, response["ETag"]) for response in unchanged] == [(200, '"1"')] * 2
    assert (renamed.status_code, renamed["ETag"]) == (200, '"2"')
    assert (fixed.status_code, fixed["ETag"]) == (200, '"3"')
    assert blank_written.json()["message"].startswith("content/headline: Value error, must show something")


def test_a_stored_document_is_read_whatever_rule_of_writing_it_breaks_but_keeps_its_shape():
    # What pages, packages and reports rely on still holds: an answer among the options, a youtube
    # video's id, a citation of one of the course's sources.
    source = {"id": f"src_{'a' * 22}", "name": "Handbook.pdf", "mediaType": "application/pdf"}
    objective = {"id": "1.1", "verb": "explain", "object": "joins", "bloomLevel": "understand"}
    stored = {**samples.course_document(), "sources": [source, source]}  # a source listed twice
    stored["chapters"][0]["objectives"] = [objective, objective]  # one id twice
    stored["assessment"]["questions"][0].update(options=["Yes", "yes ", "No"], objectiveId="9.9")
    del stored["agreement"]  # an add-on asked for, missing
    past_the_options, youtube_without_id, citing_another_source = (copy.deepcopy(stored) for _ in range(3))
    past_the_options["assessment"]["questions"][1]["correctIndex"] = 3
    youtube_without_id["chapters"][0]["lessons"][0]["video"]["kind"] = "youtube"
    citation = {"sourceId": f"src_{'b' * 22}", "passageId": f"psg_{'c' * 22}", "quote": "Joins match rows."}
    citing_another_source["chapters"][0]["lessons"][0]["citations"] = [citation]

    read = content.read_stored(stored)

    assert read.assessment.questions[0].options == ["Yes", "yes", "No"]
    assert read.schema_version == 3
    with pytest.raises(pydantic.ValidationError, match="two options say the same"):
        content.CourseContent.model_validate(stored)  # as an edit or a generator writing it
    for broken, rule in [
        (past_the_options, "correctIndex points past the options"),
        (youtube_without_id, "a youtube video has a videoId"),
        (citing_another_source, "which is not among the sources"),
    ]:
        with pytest.raises(pydantic.ValidationError, match=rule):
            content.read_stored(broken)


def test_json_is_read_by_its_camel_case_keys_and_an_older_version_only_as_stored():
    # Python code builds a part by attribute names; JSON names none.
    document = samples.course_document()
    older = samples.in_version_2(document)

    built = content.Question(prompt="Which?", options=["A", "B"], correct_index=1, explanation="B.")

    assert built.model_dump(mode="json")["correctIndex"] == 1
    with pytest.raises(pydantic.ValidationError, match=r"correctIndex\n  Field required"):
        content.Question.model_validate(older["assessment"]["questions"][0])
    with pytest.raises(pydantic.ValidationError, match=r"language_id\n  Extra inputs are not permitted"):
        content.CourseContent.model_validate(older)
    assert content.read_stored(older).model_dump(mode="json") == document


def test_a_whole_number_written_with_a_fraction_is_an_integer(api_client, course):
    # 80.0 is an integer to JSON Schema, and Python's json writes a float so.
    response = patch(api_client, course, {"assessment": {"passingScorePercent": 80.0}})

    assert response.status_code == 200
    assert response.json()["content"]["assessment"]["passingScorePercent"] == 80


def test_an_edit_that_changes_nothing_makes_no_version(api_client, course):
    document = api_client.get(url(course)).json()["content"]

    responses = [
        patch(api_client, course, {}),
        put(api_client, course, document),
        patch(api_client, course, {"name": course.name}),
    ]

    assert [(response.status_code, response["ETag"]) for response in responses] == [(200, '"1"')] * 3
    assert responses[0].json()["version"] == 1
    assert course.versions.count() == 1


@pytest.mark.parametrize("if_match", ['"2"', '"0"', "*", "nonsense", '"0", "2"'])
def test_an_edit_from_another_version_is_412(api_client, course, if_match):
    response = patch(api_client, course, {"name": "X"}, if_match=if_match)

    assert response.status_code == 412
    assert refusal(response) == {
        "message": 'The course is at version 1: read it again, apply your change to that version, and send If-Match: "1".',
        "code": "VERSION_CONFLICT",
    }
    assert Course.objects.get(pk=course.pk).version == 1


# A list holds when any of its ETags is current (RFC 9110); it was a 412.
@pytest.mark.parametrize("if_match", ['"1"', 'W/"1"', "1", '"0", "1"', 'W/"2" , "1"'])
def test_if_match_takes_the_etag_as_sent(api_client, course, if_match):
    assert patch(api_client, course, {"name": "X"}, if_match=if_match).status_code == 200


@pytest.mark.parametrize(
    "body, message",
    [
        ({"name": ""}, "content/name: String should have at least 1 character"),
        ({"chapters": []}, "content/chapters: List should have at least 1 item after validation, not 0"),
        ({"assessment": None}, "content: Value error, add-on assessment is missing in places"),
        ({"languageId": "de-DE"}, "content/languageId: must stay 'en-US', the course's own."),
        ({"format": "onepage"}, "content/format: must stay 'classic', the course's own."),
        ({"introduction": "a\x00b"}, "content/introduction: String should match pattern"),
        ({"surprise": 1}, "content/surprise: Extra inputs are not permitted"),
        # JSON's types as the document states them: these were read as a pass mark of 1 and of 80.
        ({"assessment": {"passingScorePercent": True}}, "content/assessment/passingScorePercent: Input"),
        ({"assessment": {"passingScorePercent": "80"}}, "content/assessment/passingScorePercent: Input"),
        # Keys the document knows in no spelling: refused as they always were.
        ({"assessment": {"passing_score": 80}}, "content/assessment/passing_score: Extra inputs are not permitted"),
        ({"chapters_count": 3}, "content/chapters_count: Extra inputs are not permitted"),
        ({"schemaVersion": 2}, "content/schemaVersion: Input should be 3"),
        ({"name": 7}, "content/name: Input should be a valid string"),
        # Nothing to show: a title of zero-width spaces was a blank title on the page and in the LMS.
        ({"name": "\u200b\ufeff"}, "content/name: Value error, must show something"),
        ({"name": "\u3164\u2800\u034f\ufe0f"}, "content/name: Value error, must show something"),
        ({"introduction": "\u2060\n\u00a0\u200b"}, "content/introduction: Value error, must show something"),
    ],
)
def test_an_edit_that_breaks_a_rule_is_400_naming_the_field(api_client, course, body, message):
    response = patch(api_client, course, body)

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"
    assert response.json()["message"].startswith(message)
    assert Course.objects.get(pk=course.pk).version == 1


def old_casing(document: dict, pointer: str, key: str) -> dict:
    """The document with the key at `pointer` spelled `key` (its value kept)."""
    document = copy.deepcopy(document)
    *path, last = pointer.strip("/").split("/")
    node = document
    for part in path:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[key] = node.pop(last)
    return document


# Schema versions 1 and 2 spelled these keys in snake_case: an edit in that casing names the key now.
OLD_CASING = [
    ("/assessment/questions/0/correctIndex", "correct_index"),
    ("/languageId", "language_id"),
    ("/addOns", "add_ons"),
    ("/schemaVersion", "schema_version"),
    ("/assessment/passingScorePercent", "passing_score_percent"),
    ("/chapters/1/lessons/0/exercise/expectedResult", "expected_result"),
    ("/wrapup/keyTakeaways", "key_takeaways"),
]


@pytest.mark.parametrize("pointer, old_key", OLD_CASING)
def test_a_document_sent_with_a_key_in_the_old_casing_is_400_naming_the_key_now(
    api_client, course, pointer, old_key
):
    document = api_client.get(url(course)).json()["content"]
    spelled = pointer.rsplit("/", 1)[0] + "/" + old_key

    response = put(api_client, course, old_casing(document, pointer, old_key))

    assert response.status_code == 400
    assert refusal(response) == {
        "message": f"content{spelled}: the document spells this key {pointer.rsplit('/', 1)[1]}",
        "code": "VALIDATION_ERROR",
    }
    assert Course.objects.get(pk=course.pk).version == 1


def test_a_whole_document_in_schema_version_2_is_400_naming_its_first_key_in_the_old_casing(
    api_client, course
):
    document = api_client.get(url(course)).json()["content"]

    response = put(api_client, course, samples.in_version_2(document))

    assert refusal(response) == {
        "message": "content/schema_version: the document spells this key schemaVersion",
        "code": "VALIDATION_ERROR",
    }


@pytest.mark.parametrize(
    "body, message",
    [
        (
            {"assessment": {"questions": [{"prompt": "Which?", "options": ["A", "B"], "correct_index": 0}]}},
            "content/assessment/questions/0/correct_index: the document spells this key correctIndex",
        ),
        (
            {"assessment": {"passing_score_percent": 90}},
            "content/assessment/passing_score_percent: the document spells this key passingScorePercent",
        ),
        ({"language_id": "en-US"}, "content/language_id: the document spells this key languageId"),
        # null removes a key, and there is none of that name to remove: still in the old casing.
        ({"add_ons": None}, "content/add_ons: the document spells this key addOns"),
        (
            {"wrapup": {"key_takeaways": None}},
            "content/wrapup/key_takeaways: the document spells this key keyTakeaways",
        ),
        (
            {"chapters": [{"objectives": [{"id": "1.1", "verb": "explain", "object": "joins", "bloom_level": "apply"}]}]},
            "content/chapters/0/objectives/0/bloom_level: the document spells this key bloomLevel",
        ),
        (
            {"chapters": [{"lessons": [{"video": {"kind": "youtube", "video_id": "dQw4w9WgXcQ"}}]}]},
            "content/chapters/0/lessons/0/video/video_id: the document spells this key videoId",
        ),
        (
            {"wrapup": {"citations": [{"source_id": f"src_{'a' * 22}", "passageId": f"psg_{'a' * 22}", "quote": "Q"}]}},
            "content/wrapup/citations/0/source_id: the document spells this key sourceId",
        ),
        (
            {"sources": [{"id": f"src_{'a' * 22}", "name": "Handbook.pdf", "media_type": "application/pdf"}]},
            "content/sources/0/media_type: the document spells this key mediaType",
        ),
    ],
)
def test_a_merge_patch_with_a_key_in_the_old_casing_is_400_naming_the_key_now(
    api_client, course, body, message
):
    response = patch(api_client, course, body)

    assert refusal(response) == {"message": message, "code": "VALIDATION_ERROR"}
    assert Course.objects.get(pk=course.pk).version == 1


def test_documents_stored_in_schema_versions_1_and_2_are_read_and_edited_in_version_3(api_client, course):
    # As the previous release stored them: its processes go on writing version 2 while a deploy runs.
    document = copy.deepcopy(course.content)
    Course.objects.filter(pk=course.pk).update(content=samples.in_version_2(document))
    CourseVersion.objects.filter(course=course).update(content=samples.in_version_1(document))

    latest = api_client.get(url(course)).json()["content"]
    first = api_client.get(url(course, "/versions/1")).json()["content"]
    renamed = patch(api_client, course, {"name": "Renamed"})

    assert latest == document
    assert content.read_stored(first).model_dump(mode="json") == document
    assert (first["schemaVersion"], "sources" in first) == (3, False)
    assert renamed.status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT content FROM courses_course WHERE id = %s", [course.pk])
        (stored,) = cursor.fetchone()
    stored = json.loads(stored) if isinstance(stored, str) else stored
    assert stored == {**document, "name": "Renamed"}


@pytest.mark.parametrize("body", ["[]", '"text"', "42"])
def test_an_edit_that_is_not_an_object_is_400(api_client, course, body):
    response = api_client.patch(url(course, "/content"), body, content_type="application/merge-patch+json", HTTP_IF_MATCH='"1"')

    assert response.status_code == 400
    assert response.json()["code"] == "VALIDATION_ERROR"


def test_edits_are_free(api_client, course, account):
    from accounts import services as account_services

    used = account_services.usage_for(account=account).used

    patch(api_client, course, {"name": "Free"})

    assert account_services.usage_for(account=account).used == used


@pytest.mark.django_db(transaction=True)
def test_of_two_clients_editing_the_same_version_at_once_exactly_one_wins(plain_key, api_key):
    course = CourseFactory(api_key=api_key)
    barrier = threading.Barrier(2)
    statuses = []

    def edit(name):
        client = client_for(plain_key)
        barrier.wait()
        statuses.append(patch(client, course, {"name": name}).status_code)
        connection.close()  # each thread had its own database connection

    threads = [threading.Thread(target=edit, args=(name,)) for name in ("First", "Second")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    course.refresh_from_db()
    assert sorted(statuses) == [200, 412]
    assert course.version == 2
    assert course.versions.count() == 2


def test_the_version_limit_is_409(api_client, course, settings):
    settings.COURSE_MAX_VERSIONS = 2
    assert patch(api_client, course, {"name": "Second"}).status_code == 200

    response = patch(api_client, course, {"name": "Third"}, if_match='"2"')

    assert response.status_code == 409
    assert refusal(response) == {
        "message": "This course has reached its limit of 2 versions.",
        "code": "VERSION_LIMIT_REACHED",
    }


# Versions -------------------------------------------------------------------------------------


def test_versions_are_listed_newest_first_and_each_can_be_read_whole(api_client, course):
    original = course.content
    patch(api_client, course, {"name": "Second"})
    patch(api_client, course, {"headline": "Third time lucky"}, if_match='"2"')

    listing = api_client.get(url(course, "/versions")).json()
    first = api_client.get(url(course, "/versions/1")).json()
    missing = api_client.get(url(course, "/versions/9"))

    assert listing["courseId"] == course.public_id
    assert [(v["version"], v["source"], v["changed"]) for v in listing["versions"]] == [
        (3, "edited", "title"),
        (2, "edited", "title"),
        (1, "generated", "content"),
    ]
    assert all(v["createdAt"].endswith("Z") for v in listing["versions"])
    assert (first["version"], first["courseId"], first["content"]) == (1, course.public_id, original)
    assert missing.status_code == 404
    assert refusal(missing) == {"message": "Version not found.", "code": "NOT_FOUND"}


def test_listing_versions_and_reading_one_cost_three_queries_each(
    api_client, course, django_assert_num_queries
):
    patch(api_client, course, {"name": "Second"})  # the key's last use is written now

    with django_assert_num_queries(3):  # the key, the course, then its versions
        listing = api_client.get(url(course, "/versions"))
    with django_assert_num_queries(3):  # the key, the course, then the version
        first = api_client.get(url(course, "/versions/1"))
    with django_assert_num_queries(3):  # as for a version that does not exist
        missing = api_client.get(url(course, "/versions/9"))
    with django_assert_num_queries(2):  # the key, and no course of its own by that id
        unknown = api_client.get("/api/v1/courses/cou_0000000000000000000000/versions/1")

    assert [v["version"] for v in listing.json()["versions"]] == [2, 1]
    assert first.json()["version"] == 1
    assert (missing.status_code, unknown.status_code) == (404, 404)
    assert refusal(unknown) == {"message": "Course not found.", "code": "NOT_FOUND"}


# Everywhere else ------------------------------------------------------------------------------


def test_the_preview_page_shows_the_latest_version(api_client, course):
    client = Client()
    before = client.get(f"/go/{course.public_id}")

    patch(api_client, course, {"name": "SQL, edited"})
    after = client.get(f"/go/{course.public_id}", HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert "SQL, edited" in after.content.decode()


def test_exports_name_their_version_and_old_links_keep_serving_what_they_packaged(api_client, course, client):
    first = api_client.post(url(course, "/export"), {}, format="json").json()
    patch(api_client, course, {"name": "Renamed course"})
    second = api_client.post(url(course, "/export"), {}, format="json").json()

    def download(export):
        return client.get(urllib.parse.urlsplit(export["downloadUrl"]).path)

    def manifest(export):
        response = download(export)
        return zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))).read("imsmanifest.xml").decode()

    assert (first["version"], second["version"]) == (1, 2)
    assert "Renamed course" not in manifest(first)
    assert "Renamed course" in manifest(second)
    # Named as what it packaged: the first link was served under the course's new name.
    assert 'filename="renamed-course-scorm12.zip"' in download(second)["Content-Disposition"]
    assert f'filename="{slugify(course.name)}-scorm12.zip"' in download(first)["Content-Disposition"]


def test_staff_see_versions_read_only_with_the_text_that_changed(admin_client, api_client, course):
    patch(api_client, course, {"name": "A new name"})
    version = CourseVersion.objects.get(course=course, number=2)

    page = admin_client.get(f"/admin/courses/courseversion/{version.pk}/change/").content.decode()
    course_page = admin_client.get(f"/admin/courses/course/{course.pk}/change/").content.decode()

    assert "-name: Intro to SQL" in page and "+name: A new name" in page
    assert "Edited" in course_page and "Generated" in course_page
