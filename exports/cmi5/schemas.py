"""
Validate a `cmi5.xml` against the specification's CourseStructure.xsd, offline.

The schema is the project's own copy in `xsd/` (see its README); it imports nothing, and the
parsers never touch the network or load DTDs.
"""

import functools
from pathlib import Path

from lxml import etree

XSD = Path(__file__).resolve().parent / "xsd" / "CourseStructure.xsd"


class CourseStructureInvalid(Exception):
    """The course structure does not validate; the message lists libxml2's errors."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(no_network=True, load_dtd=False, resolve_entities=False, huge_tree=False)


@functools.cache
def schema() -> etree.XMLSchema:
    """The compiled CourseStructure.xsd (cached)."""
    return etree.XMLSchema(etree.parse(str(XSD), _parser()))


def validate_course_structure(structure: bytes) -> None:
    """
    Check a course structure against CourseStructure.xsd.
    :raises CourseStructureInvalid: with every validation error, if it does not validate
    """
    try:
        document = etree.fromstring(structure, _parser())
    except etree.XMLSyntaxError as exc:
        raise CourseStructureInvalid(f"not well-formed XML: {exc}") from None
    if not schema().validate(document):
        raise CourseStructureInvalid("; ".join(f"line {e.line}: {e.message}" for e in schema().error_log))
