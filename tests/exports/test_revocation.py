"""Clients take one download link down (DELETE /api/v1/courses/:id/exports/:id), and staff do from the admin."""

import logging
from pathlib import Path

import pytest
from django.test import Client

from courses.models import Course
from exports.models import Export
from tests.support.exports import export, path_of
from tests.support.factories import CourseFactory

CALLBACK = "https://hooks.example.com/cgs/s3cret-token"
NOT_FOUND = {"message": "Course not found.", "code": "NOT_FOUND"}
# The `course` of these tests: in Brazilian Portuguese, its job with a callback URL.
pytestmark = pytest.mark.course(language_id="pt-BR", job__callback_url=CALLBACK)


@pytest.fixture(autouse=True)
def _files_and_links(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.PUBLIC_BASE_URL = "https://courses.example.com"


def revoke(client, course, export_id, capture):
    with capture(execute=True):
        return client.delete(f"/api/v1/courses/{course.public_id}/exports/{export_id}")


def test_revoking_an_export_takes_down_its_link_only(api_client, course, django_capture_on_commit_callbacks):
    revoked, kept = export(api_client, course), export(api_client, course)
    file = Path(Export.objects.get(public_id=revoked["exportId"]).file.path)

    response = revoke(api_client, course, revoked["exportId"], django_capture_on_commit_callbacks)

    assert response.status_code == 204
    assert not file.exists()
    assert Client().get(path_of(revoked["downloadUrl"])).status_code == 410
    assert Client().get(path_of(kept["downloadUrl"])).status_code == 200
    assert Client().get(f"/go/{course.public_id}").status_code == 200
    assert Course.objects.get(pk=course.pk).version == 1


def test_revoking_is_a_line_in_the_log_naming_the_export_by_the_start_of_its_id(
    api_client, api_key, course, caplog, django_capture_on_commit_callbacks
):
    revoked = export(api_client, course)["exportId"]

    with caplog.at_level(logging.INFO, logger="exports.services"):
        revoke(api_client, course, revoked, django_capture_on_commit_callbacks)

    [line] = [record for record in caplog.records if record.getMessage() == "export revoked"]
    # Whole, the id would open the download link: the first characters tell exports apart.
    assert (line.course_id, line.export_id, line.deleted_by) == (
        course.public_id, revoked[:8] + "…", f"api key {api_key.prefix}"
    )


def test_revoking_twice_or_another_courses_export_is_404(api_client, api_key, course, django_capture_on_commit_callbacks):
    revoked = export(api_client, course)["exportId"]
    revoke(api_client, course, revoked, django_capture_on_commit_callbacks)
    other = CourseFactory(api_key=api_key)
    elsewhere = export(api_client, other)["exportId"]

    answers = [
        revoke(api_client, course, revoked, django_capture_on_commit_callbacks),
        revoke(api_client, course, elsewhere, django_capture_on_commit_callbacks),
        revoke(api_client, course, "exp_0000000000000000000000", django_capture_on_commit_callbacks),
        revoke(api_client, course, "nonsense", django_capture_on_commit_callbacks),
    ]

    for response in answers:
        assert (response.status_code, response.json()) == (404, {"message": "Export not found.", "code": "NOT_FOUND"})
    assert Export.objects.filter(public_id=elsewhere).exists()


def test_another_key_cannot_revoke_an_export(stranger_client, api_client, course, django_capture_on_commit_callbacks):
    link = export(api_client, course)

    response = revoke(stranger_client, course, link["exportId"], django_capture_on_commit_callbacks)

    assert (response.status_code, response.json()) == (404, NOT_FOUND)
    assert Client().get(path_of(link["downloadUrl"])).status_code == 200


# Staff, from the admin --------------------------------------------------------------------------


def test_staff_revoke_an_export_from_the_admin(staff_client, api_client, course, caplog, django_capture_on_commit_callbacks):
    link = export(api_client, course)
    stored = Export.objects.get()

    with caplog.at_level(logging.INFO, logger="exports.services"), django_capture_on_commit_callbacks(execute=True):
        staff_client.post(f"/admin/exports/export/{stored.pk}/delete/", {"post": "yes"})

    assert Client().get(path_of(link["downloadUrl"])).status_code == 410
    assert Course.objects.filter(pk=course.pk).exists()
    assert [record.deleted_by for record in caplog.records if record.getMessage() == "export revoked"] == ["staff staff"]


def test_staff_see_an_exports_id_masked_and_find_and_revoke_it_by_its_whole_id(
    staff_client, api_client, course, django_capture_on_commit_callbacks
):
    # The whole id is the download link's secret.
    link = export(api_client, course)
    export_id = link["exportId"]
    masked = f"{export_id[:8]}…"
    stored = Export.objects.get()
    change_link = f"/admin/exports/export/{stored.pk}/change/"

    shown = {
        "the list": staff_client.get("/admin/exports/export/"),
        "its page": staff_client.get(change_link),
        "its course's delete confirmation": staff_client.get(f"/admin/courses/course/{course.pk}/delete/"),
        "its revoke confirmation": staff_client.post(
            "/admin/exports/export/", {"action": "delete_selected", "_selected_action": [stored.pk]}
        ),
    }
    searched = staff_client.get("/admin/exports/export/", {"q": export_id})  # the box shows what staff typed
    searched_by_its_start = staff_client.get("/admin/exports/export/", {"q": export_id[:12]})
    with django_capture_on_commit_callbacks(execute=True):
        revoked = staff_client.post(
            "/admin/exports/export/",
            {"action": "delete_selected", "_selected_action": [stored.pk], "post": "yes"},
            follow=True,
        )
    shown["the recent actions"] = staff_client.get("/admin/")

    assert {where: page.status_code for where, page in shown.items()} == dict.fromkeys(shown, 200)
    assert [where for where, page in shown.items() if export_id in page.content.decode()] == []
    assert [where for where, page in shown.items() if masked not in page.content.decode()] == []
    assert change_link in searched.content.decode() and masked in searched.content.decode()
    assert change_link not in searched_by_its_start.content.decode()
    assert "Successfully deleted 1 export." in revoked.content.decode()
    assert Client().get(path_of(link["downloadUrl"])).status_code == 410
