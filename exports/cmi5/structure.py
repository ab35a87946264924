"""
`cmi5.xml`: the course structure of a cmi5 package (cmi5 specification, section 13).

One AU for the whole course, for the reasons the SCORM packages have one SCO (see the top of
courses/scorm/manifest.py): the LMS gets the course's completion, score and pass/fail from one
place, and the player keeps the learner's place itself.

The AU is satisfied (`moveOn`) when the learner has completed the course (the player reports it by
the service's rule: every chapter seen, the assessment passed, the agreement confirmed) and, with an
assessment, passed it: `CompletedAndPassed`. `CompletedOrPassed` would let a learner who passes the
assessment satisfy the course before the rest is done; SCORM 2004 likewise needs completion and
success.
"""

from decimal import Decimal

from lxml import etree

from courses.content import CourseContent
from exports.packaging import xml_text

NAMESPACE = "https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"
_NS = f"{{{NAMESPACE}}}"


def au_iri(course_iri: str) -> str:
    """The publisher's id of the course's one AU."""
    return f"{course_iri}/au"


def mastery_score(content: CourseContent) -> str | None:
    """The assessment's pass mark as cmi5 writes it (0 to 1, at most 4 decimals), or None."""
    if content.assessment is None:
        return None
    return str(Decimal(content.assessment.passing_score_percent) / 100)


def build_course_structure(*, content: CourseContent, course_iri: str, launch_page: str) -> bytes:
    """The course structure of a one-AU course whose AU starts at `launch_page` (relative)."""
    root = etree.Element(_NS + "courseStructure", nsmap={None: NAMESPACE})
    course = etree.SubElement(root, _NS + "course", id=course_iri)
    _langstrings(course, content)

    attributes = {"id": au_iri(course_iri), "launchMethod": "AnyWindow"}
    score = mastery_score(content)
    if score is None:
        attributes["moveOn"] = "Completed"
    else:
        attributes["moveOn"] = "CompletedAndPassed"
        attributes["masteryScore"] = score
    au = etree.SubElement(root, _NS + "au", attributes)
    _langstrings(au, content)
    etree.SubElement(au, _NS + "url").text = launch_page
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _langstrings(parent: etree._Element, content: CourseContent) -> None:
    for tag, text in (("title", content.name), ("description", content.headline)):
        element = etree.SubElement(parent, _NS + tag)
        etree.SubElement(element, _NS + "langstring", lang=content.language_id).text = xml_text(text)
