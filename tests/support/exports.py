"""What the tests of download links share: an export made over the API, and a link's path."""

import urllib.parse


def export(client, course) -> dict:
    """POST /api/v1/courses/{id}/export with no options; the export as the API answers it."""
    response = client.post(f"/api/v1/courses/{course.public_id}/export", {}, format="json")
    assert response.status_code == 200
    return response.json()


def path_of(url: str) -> str:
    return urllib.parse.urlsplit(url).path
