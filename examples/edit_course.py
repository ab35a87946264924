"""
Read a course, fix its title, generate its chapter 2 again, and list its versions.

    API_KEY=cgs_... BASE_URL=http://localhost:8000 COURSE_ID=cou_... python examples/edit_course.py
"""

import os
import sys
import time

import requests

BASE_URL = os.environ.get("BASE_URL", "http://localhost:8000").rstrip("/")
COURSE = f"{BASE_URL}/api/v1/courses/{os.environ['COURSE_ID']}"
API = requests.Session()
API.headers["Authorization"] = f"Bearer {os.environ['API_KEY']}"


def ok(response: requests.Response) -> requests.Response:
    if not response.ok:
        # Every API error is JSON {"message": ..., "code": ...}: switch on the code.
        sys.exit(f"{response.request.method} {response.url}: {response.status_code} {response.text}")
    return response


def main() -> None:
    # The whole document, and its version as the ETag.
    read = ok(API.get(COURSE, timeout=30))
    course = read.json()
    print(f"{course['id']} version {course['version']}: {course['name']}")

    # A JSON Merge Patch changes only what it names. If-Match says which version the change starts
    # from: if someone else edited the course meanwhile, the answer is 412 and nothing is lost.
    fixed = ok(
        API.patch(
            COURSE + "/content",
            json={"name": course["name"] + " (2nd edition)"},
            headers={"If-Match": read.headers["ETag"], "Content-Type": "application/merge-patch+json"},
            timeout=30,
        )
    ).json()
    print(f"Renamed: version {fixed['version']}: {fixed['name']}")

    # Chapter 2 written again, fitting the rest of the course: a job, polled like a create.
    accepted = ok(
        API.post(
            COURSE + "/regenerate",
            json={"target": "chapter", "chapter": 2, "instructions": "More worked examples."},
            timeout=30,
        )
    ).json()
    job = accepted
    while job["status"] in ("pending", "running"):
        time.sleep(5)
        job = ok(API.get(BASE_URL + accepted["pollUrl"], timeout=30)).json()
    if job["status"] == "failed":
        sys.exit(f"Chapter 2 was not generated again: {job['error']['code']}")

    for version in ok(API.get(COURSE + "/versions", timeout=30)).json()["versions"]:
        print(f"version {version['version']}: {version['source']}, {version['changed']}")


if __name__ == "__main__":
    main()
