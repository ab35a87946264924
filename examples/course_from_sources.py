"""
Upload a PDF, build a course from it, and print the course's id and share link, then where each
lesson's words come from.

    API_KEY=cgs_... BASE_URL=http://localhost:8000 python examples/course_from_sources.py handbook.pdf
"""

import os
import sys
import time

import requests

BASE_URL = os.environ.get("BASE_URL", "http://localhost:8000").rstrip("/")
API = requests.Session()
API.headers["Authorization"] = f"Bearer {os.environ['API_KEY']}"


def ok(response: requests.Response) -> requests.Response:
    if not response.ok:
        # Every API error is JSON {"message": ..., "code": ...}: switch on the code.
        sys.exit(f"{response.request.method} {response.url}: {response.status_code} {response.text}")
    return response


def until_done(url: str, busy: tuple[str, ...]) -> dict:
    """GET url until its status is no longer one of `busy`, as often as its Retry-After allows."""
    while True:
        response = ok(API.get(url, timeout=30))
        if response.json()["status"] not in busy:
            return response.json()
        time.sleep(max(5, int(response.headers.get("Retry-After", "5"))))


def main() -> None:
    path = sys.argv[1]
    with open(path, "rb") as document:
        accepted = ok(
            API.post(f"{BASE_URL}/api/v1/sources", files={"file": (os.path.basename(path), document)}, timeout=120)
        ).json()
    # The document is read in the background: its headings, pages and passages.
    source = until_done(f"{BASE_URL}/api/v1/sources/{accepted['id']}", busy=("pending",))
    if source["status"] == "failed":
        sys.exit(f"{path} could not be read: {source['error']['code']}: {source['error']['message']}")
    pages = "no pages" if source["pages"] is None else f"{source['pages']} pages"  # web pages, Markdown, text
    print(f"Source {source['id']}: {pages}, {len(source['outline'])} headings")

    # A course built from it: its chapters follow the document's headings, and every part cites it.
    job = ok(
        API.post(
            f"{BASE_URL}/api/v1/courses",
            json={"subject": "What every new employee needs to know", "sources": [source["id"]],
                  "addOns": ["assessment"]},
            timeout=30,
        )
    ).json()
    job = until_done(BASE_URL + job["pollUrl"], busy=("pending", "running"))
    if job["status"] == "failed":
        sys.exit(f"Job {job['jobId']} failed: {job['error']['code']}: {job['error']['message']}")

    course = job["course"]
    print(f"Course {course['id']}: {course['shareUrl']}")

    content = ok(API.get(f"{BASE_URL}/api/v1/courses/{course['id']}", timeout=30)).json()["content"]
    names = {cited["id"]: cited["name"] for cited in content["sources"]}
    for chapter in content["chapters"]:
        print(chapter["title"])
        for lesson in chapter["lessons"]:
            for citation in lesson["citations"]:
                page = f", page {citation['page']}" if citation["page"] else ""
                print(f"  {lesson['title']}: \"{citation['quote']}\" ({names[citation['sourceId']]}{page})")


if __name__ == "__main__":
    main()
