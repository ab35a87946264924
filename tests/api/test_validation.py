"""
What a 400 says: a field the endpoint does not know is refused by name (with the field meant, where
one is close) before anything is charged, and every problem is listed in `errors` with its path and,
for a choice, the values allowed.
"""

import pytest

from accounts import services as account_services
from courses.models import AddOn, Course, Format, GenerationJob, Part
from exports.models import Export
from learners.models import Learner
from sources.models import Source
from tests.support.errors import error_of, refusal

FORMATS = list(Format.values)
ADD_ONS = list(AddOn.values)
CREATE_FIELDS = ["subject", "format", "languageId", "outline", "addOns", "callbackUrl", "sources", "learnerCallbackUrl"]


def test_a_misspelt_field_is_refused_by_name_with_the_field_meant_and_nothing_is_charged(api_client, account):
    response = api_client.post(
        "/api/v1/courses", {"subject": "Intro to SQL", "addons": ["assessment"]}, format="json"
    )

    assert error_of(response) == (
        400, "VALIDATION_ERROR", "addons: Not a field of this request; did you mean `addOns`?"
    )
    assert response.json()["errors"] == [
        {"field": "addons", "message": "Not a field of this request; did you mean `addOns`?", "allowed": CREATE_FIELDS}
    ]
    assert not GenerationJob.objects.exists()
    assert account_services.usage_for(account=account).used == 0


@pytest.mark.parametrize(
    "name, meant",
    [("callback_url", "callbackUrl"), ("CallbackURL", "callbackUrl"), ("lang", None), ("languageID", "languageId"),
     ("subjects", "subject"), ("colour", None)],
)
def test_an_unknown_field_names_the_field_meant_only_where_one_is_close(api_client, name, meant):
    response = api_client.post("/api/v1/courses", {"subject": "SQL", name: "x"}, format="json")

    hint = f"; did you mean `{meant}`?" if meant else "."
    assert error_of(response) == (400, "VALIDATION_ERROR", f"{name}: Not a field of this request{hint}")


def endpoints(course, plain_key):
    """Every endpoint that reads fields: method, path, a valid body (or query), how it is sent."""
    path = f"/api/v1/courses/{course.public_id}"
    return [
        ("post", "/api/v1/courses", {"subject": "SQL"}, "json"),
        ("post", f"{path}/regenerate", {"target": "introduction"}, "json"),
        ("post", f"{path}/export", {"format": "scorm12"}, "json"),
        ("post", f"{path}/learners", {"externalId": "E-1"}, "json"),
        ("patch", path, {"learnerCallbackUrl": None}, "json"),
        ("post", "/api/v1/sources", {"url": "https://docs.example.com/guide"}, "json"),
        ("post", "/api/v1/sources", {"name": "Notes"}, "multipart"),
        ("get", "/api/v1/sources", {"limit": "5"}, "query"),
        ("get", "/api/v1/courses", {"limit": "5"}, "query"),
        ("get", "/api/v1/courses/jobs", {"limit": "5"}, "query"),
        ("get", f"{path}/results", {"limit": "5"}, "query"),
        ("get", f"{path}/quality", {"version": "1"}, "query"),
    ]


def test_every_endpoint_refuses_a_field_it_does_not_know_and_does_nothing(api_client, course, plain_key):
    before = (GenerationJob.objects.count(), Export.objects.count(), Learner.objects.count(), Source.objects.count())

    for method, path, valid, kind in endpoints(course, plain_key):
        fields = {**valid, "zzz": "1"}
        if kind == "json":
            response = getattr(api_client, method)(path, fields, format="json")
        elif kind == "multipart":
            response = api_client.post(path, fields)  # a multipart body, without its file
        else:
            response = api_client.get(path, fields)

        assert response.status_code == 400, (method, path)
        assert response.json()["errors"][0]["field"] == "zzz", (method, path)
        assert response.json()["errors"][0]["message"].startswith("Not a "), (method, path)
    after = (GenerationJob.objects.count(), Export.objects.count(), Learner.objects.count(), Source.objects.count())
    assert after == before
    assert Course.objects.get(pk=course.pk).learner_callback_url == course.learner_callback_url


def test_a_course_setting_that_is_not_one_says_where_the_document_is_edited(api_client, course):
    response = api_client.patch(f"/api/v1/courses/{course.public_id}", {"name": "New"}, format="json")

    assert error_of(response) == (
        400, "VALIDATION_ERROR", "name: Not a setting of the course (its document is edited at …/content)."
    )


def test_every_problem_is_listed_in_order_with_its_path_and_the_values_allowed(api_client):
    body = {
        "subject": "",
        "format": "book",
        "outline": ["Basics", 42],
        "addOns": ["assessment", "quizz"],
        "colour": "red",
    }

    response = api_client.post("/api/v1/courses", body, format="json")

    assert refusal(response) == {
        "message": "colour: Not a field of this request. (4 more in `errors`.)",
        "code": "VALIDATION_ERROR",
    }
    assert response.json()["errors"] == [
        {"field": "colour", "message": "Not a field of this request.", "allowed": CREATE_FIELDS},
        {"field": "subject", "message": "Must not be blank."},
        {"field": "format", "message": '"book" is not a valid choice.', "allowed": FORMATS},
        {"field": "outline[1]", "message": "Must be a string."},
        {"field": "addOns[1]", "message": '"quizz" is not a valid choice.', "allowed": ADD_ONS},
    ]


def test_a_required_choice_left_out_lists_its_values(api_client, course):
    response = api_client.post(f"/api/v1/courses/{course.public_id}/regenerate", {}, format="json")

    assert response.json()["errors"] == [
        {"field": "target", "message": "This field is required.", "allowed": list(Part.values)},
    ]


def test_an_edit_lists_every_rule_of_the_course_schema_it_breaks(api_client, course):
    document = api_client.get(f"/api/v1/courses/{course.public_id}").json()["content"]
    document["name"] = ""
    document["chapters"][1]["title"] = 7
    document["chapters"][2]["lessons"][0]["extra"] = True

    response = api_client.put(
        f"/api/v1/courses/{course.public_id}/content", document, format="json", HTTP_IF_MATCH='"1"'
    )

    body = refusal(response)
    assert body["code"] == "VALIDATION_ERROR"
    assert body["message"].startswith("content/name: ") and body["message"].endswith(" (2 more in `errors`.)")
    assert [problem["field"] for problem in response.json()["errors"]] == [
        "name", "chapters[1].title", "chapters[2].lessons[0].extra",
    ]
    assert Course.objects.get(pk=course.pk).version == 1


def test_a_body_that_cannot_be_read_is_one_problem_of_the_whole_request(api_client):
    response = api_client.post("/api/v1/courses", "{not json", content_type="application/json")

    assert response.json() == {
        "message": "Malformed JSON body.",
        "code": "VALIDATION_ERROR",
        "errors": [{"field": None, "message": "Malformed JSON body."}],
    }


def test_only_a_400_lists_problems(client, api_client):
    assert "errors" not in client.get("/api/v1/courses").json()  # 401
    assert "errors" not in api_client.get("/api/v1/courses/jobs/job_0000000000000000000000").json()  # 404
