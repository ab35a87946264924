"""
Create a course, wait until it is generated, export it as SCORM 1.2 and download the zip.

    API_KEY=cgs_... BASE_URL=http://localhost:8000 python examples/quickstart.py
"""

import os
import sys
import time
import uuid

import requests

BASE_URL = os.environ.get("BASE_URL", "http://localhost:8000").rstrip("/")
API = requests.Session()
API.headers["Authorization"] = f"Bearer {os.environ['API_KEY']}"


def call(method: str, path: str, **kwargs) -> requests.Response:
    """Send an API request; wait out 429 answers as long as Retry-After says; exit on an error."""
    for _ in range(5):
        response = API.request(method, BASE_URL + path, timeout=30, **kwargs)
        if response.status_code != 429:
            break
        wait = int(response.headers.get("Retry-After", "60"))
        print(f"Rate limited, retrying in {wait} s", file=sys.stderr)
        time.sleep(wait)
    if not response.ok:
        # Every API error is JSON {"message": ..., "code": ...}: switch on the code.
        sys.exit(f"{method} {path}: {response.status_code} {response.text}")
    return response


def main() -> None:
    # The same Idempotency-Key on a resent request (say, after a lost answer) gets the same job
    # back instead of a second job and a second credit.
    accepted = call(
        "POST",
        "/api/v1/courses",
        json={"subject": "Intro to SQL", "format": "onepage", "addOns": ["assessment"]},
        headers={"Idempotency-Key": str(uuid.uuid4())},
    ).json()
    print(f"Job {accepted['jobId']} accepted")

    # Generation takes a minute or two. Unfinished jobs say when to ask again (Retry-After: 5).
    wait = 0
    while True:
        time.sleep(wait)
        response = call("GET", accepted["pollUrl"])
        job = response.json()
        if job["status"] == "completed":
            break
        if job["status"] == "failed":
            error = job["error"]
            sys.exit(f"Job {job['jobId']} failed: {error['code']}: {error['message']}")
        print(f"Job {job['status']}, {job['progress']}%")
        wait = max(5, int(response.headers.get("Retry-After", "5")))

    course = job["course"]
    print(f"Course {course['id']} ready, preview: {course['shareUrl']}")
    export = call("POST", f"/api/v1/courses/{course['id']}/export", json={"format": "scorm12"})

    # The download link needs no key: its unguessable id is the secret.
    package = requests.get(export.json()["downloadUrl"], timeout=60)
    package.raise_for_status()
    path = f"{course['id']}-scorm12.zip"
    with open(path, "wb") as file:
        file.write(package.content)
    print(f"Saved {path} ({len(package.content)} bytes)")


if __name__ == "__main__":
    main()
