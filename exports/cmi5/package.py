"""The zip: cmi5.xml at the root, and the AU: the course player with the cmi5 runtime."""

from pathlib import Path

from courses.content import CourseContent
from exports import packaging
from exports.cmi5.structure import build_course_structure
from exports.player import page

COURSE_STRUCTURE = "cmi5.xml"
# Speaks xAPI with the LMS the cmi5 way: launch parameters, auth token, LMS.LaunchData, statements.
# The LMS's endpoint and fetch URL are only known at launch: the AU may connect to any web origin,
# and its script connects only to those two.
RUNTIME = page.Runtime(
    path="assets/cmi5.js",
    source=Path(__file__).resolve().parent / "assets" / "cmi5.js",
    version="cmi5",
    connect_src="https: http:",
)


def build_package(*, content: CourseContent, course_iri: str) -> bytes:
    """The cmi5 package of the course, identified by `course_iri`, as zip bytes."""
    files = page.files(content=content, runtime=RUNTIME)
    structure = build_course_structure(content=content, course_iri=course_iri, launch_page=page.LAUNCH_PAGE)
    return packaging.zip_files([(COURSE_STRUCTURE, structure), *files.items()])
