from exports.models import Export
from tests.support.factories import CourseFactory
from webhooks.models import WebhookEvent


def export(client, course, body, key):
    return client.post(f"/api/v1/courses/{course.public_id}/export", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_retried_export_with_the_same_key_returns_the_first_export(api_client, api_key):
    course = CourseFactory(api_key=api_key)
    first = export(api_client, course, {"format": "scorm2004"}, "exp-1")

    again = export(api_client, course, {"format": "scorm2004"}, "exp-1")

    assert again.status_code == 200
    assert again.json() == first.json()
    assert Export.objects.filter(course=course).count() == 1


def test_a_replayed_export_sends_no_second_event(api_client, api_key):
    course = CourseFactory(api_key=api_key)
    body = {"format": "scorm12", "callbackUrl": "https://hooks.example.com/exports/7f3a9c2e"}
    first = export(api_client, course, body, "exp-1")

    again = export(api_client, course, body, "exp-1")

    assert again.json() == first.json()
    assert WebhookEvent.objects.filter(event_type="course.exported").count() == 1


def test_same_key_for_another_export_is_409(api_client, api_key):
    course = CourseFactory(api_key=api_key)
    export(api_client, course, {"format": "scorm2004"}, "exp-1")

    response = export(api_client, course, {"format": "scorm12"}, "exp-1")

    assert response.status_code == 409
    assert response.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert Export.objects.filter(course=course).count() == 1


def test_a_create_key_cannot_be_replayed_as_an_export(api_client, api_key):
    course = CourseFactory(api_key=api_key)
    api_client.post("/api/v1/courses", {"subject": "SQL"}, format="json", HTTP_IDEMPOTENCY_KEY="shared")

    response = export(api_client, course, {}, "shared")

    assert response.status_code == 409


def test_without_a_key_every_export_is_new(api_client, api_key):
    course = CourseFactory(api_key=api_key)

    api_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")
    api_client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")

    assert Export.objects.filter(course=course).count() == 2
