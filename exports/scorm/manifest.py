"""
`imsmanifest.xml` for each SCORM version we export.

Design: the whole course is ONE SCO (one organization, one item, one resource) with its own
navigation between pages, rather than an item per chapter. One SCO gives the LMS a single,
correct completion and score for the course: with an item per chapter the final assessment would
be one SCO among many, so the course's score and passed/failed would depend on each LMS's rollup
(SCORM 1.2 has no rollup at all, and 2004 rollup rules weigh every chapter equally), bookmarks
would be split across SCOs, and the agreement could not hold back the completion of chapters the
learner already finished. It also launches once instead of once per chapter, which is faster in
every LMS and works the same in those that show no table of contents. Where the learner is inside
the course is kept with the SCO's own bookmark (location and suspend_data).
"""

from dataclasses import dataclass

from lxml import etree

from courses.content import CourseContent
from exports.packaging import xml_text

XSI = "http://www.w3.org/2001/XMLSchema-instance"
XML_NS = "http://www.w3.org/XML/1998/namespace"


@dataclass(frozen=True)
class Version:
    format: str  # Export.ExportFormat value
    schema_folder: str  # folder of courses/scorm/xsd/
    schemaversion: str  # <schemaversion> of the manifest
    runtime: str  # data model the SCO speaks: "1.2" or "2004"


SCORM12 = Version("scorm12", "scorm12", "1.2", "1.2")
SCORM2004_3 = Version("scorm2004", "scorm2004-3", "2004 3rd Edition", "2004")
SCORM2004_4 = Version("scorm2004_4", "scorm2004-4", "2004 4th Edition", "2004")
VERSIONS = {version.format: version for version in (SCORM12, SCORM2004_3, SCORM2004_4)}

IDS = {"organization": "ORG-1", "item": "ITEM-1", "resource": "RES-1"}
# SCORM 1.2's <title> may hold at most 200 characters; course names may be longer.
SCORM12_TITLE_MAX = 200


def build_manifest(*, version: Version, content: CourseContent, course_id: str, files: list[str]) -> bytes:
    """The manifest of a one-SCO package whose launch page is `files[0]`, listing every file."""
    if version.runtime == "1.2":
        root = _manifest_12(content=content, course_id=course_id, files=files)
    else:
        root = _manifest_2004(version=version, content=content, course_id=course_id, files=files)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def _sub(parent, tag: str, text: str | None = None, **attributes) -> etree._Element:
    element = etree.SubElement(parent, tag, attributes)
    if text is not None:
        element.text = text
    return element


# SCORM 1.2 ------------------------------------------------------------------------------------

CP12 = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP12 = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
IMSMD12 = "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"


def _manifest_12(*, content: CourseContent, course_id: str, files: list[str]) -> etree._Element:
    cp, adlcp, md = (f"{{{ns}}}" for ns in (CP12, ADLCP12, IMSMD12))
    root = etree.Element(
        cp + "manifest",
        {"identifier": f"MANIFEST-{course_id}", "version": "1.0"},
        nsmap={None: CP12, "adlcp": ADLCP12, "imsmd": IMSMD12, "xsi": XSI},
    )
    root.set(
        f"{{{XSI}}}schemaLocation",
        f"{CP12} imscp_rootv1p1p2.xsd {IMSMD12} imsmd_rootv1p2p1.xsd {ADLCP12} adlcp_rootv1p2.xsd",
    )
    metadata = _sub(root, cp + "metadata")
    _sub(metadata, cp + "schema", "ADL SCORM")
    _sub(metadata, cp + "schemaversion", "1.2")
    lom = _sub(metadata, md + "lom")
    general = _sub(lom, md + "general")
    language = {f"{{{XML_NS}}}lang": content.language_id}
    _sub(_sub(general, md + "title"), md + "langstring", xml_text(content.name), **language)
    _sub(general, md + "language", content.language_id)
    _sub(_sub(general, md + "description"), md + "langstring", xml_text(content.headline), **language)

    title = xml_text(content.name, SCORM12_TITLE_MAX)
    organizations = _sub(root, cp + "organizations", default=IDS["organization"])
    organization = _sub(organizations, cp + "organization", identifier=IDS["organization"])
    _sub(organization, cp + "title", title)
    item = _sub(
        organization, cp + "item", identifier=IDS["item"], identifierref=IDS["resource"], isvisible="true"
    )
    _sub(item, cp + "title", title)
    if content.assessment is not None:
        # The LMS hands this to the SCO as cmi.student_data.mastery_score.
        _sub(item, adlcp + "masteryscore", str(content.assessment.passing_score_percent))

    _add_sco_resource(root, cp=cp, files=files, scorm_type=f"{{{ADLCP12}}}scormtype")
    return root


# SCORM 2004 -----------------------------------------------------------------------------------

CP = "http://www.imsglobal.org/xsd/imscp_v1p1"
ADLCP = "http://www.adlnet.org/xsd/adlcp_v1p3"
ADLSEQ = "http://www.adlnet.org/xsd/adlseq_v1p3"
ADLNAV = "http://www.adlnet.org/xsd/adlnav_v1p3"
IMSSS = "http://www.imsglobal.org/xsd/imsss"
LOM = "http://ltsc.ieee.org/xsd/LOM"


def _manifest_2004(*, version: Version, content: CourseContent, course_id: str, files: list[str]):
    cp, adlcp, adlnav, imsss, lom = (f"{{{ns}}}" for ns in (CP, ADLCP, ADLNAV, IMSSS, LOM))
    root = etree.Element(
        cp + "manifest",
        {"identifier": f"MANIFEST-{course_id}", "version": "1"},
        nsmap={
            None: CP,
            "adlcp": ADLCP,
            "adlseq": ADLSEQ,
            "adlnav": ADLNAV,
            "imsss": IMSSS,
            "lom": LOM,
            "xsi": XSI,
        },
    )
    root.set(
        f"{{{XSI}}}schemaLocation",
        " ".join(
            [
                f"{CP} imscp_v1p1.xsd",
                f"{ADLCP} adlcp_v1p3.xsd",
                f"{ADLSEQ} adlseq_v1p3.xsd",
                f"{ADLNAV} adlnav_v1p3.xsd",
                f"{IMSSS} imsss_v1p0.xsd",
                f"{LOM} lom.xsd",
            ]
        ),
    )
    metadata = _sub(root, cp + "metadata")
    _sub(metadata, cp + "schema", "ADL SCORM")
    _sub(metadata, cp + "schemaversion", version.schemaversion)
    general = _sub(_sub(metadata, lom + "lom"), lom + "general")
    _sub(_sub(general, lom + "title"), lom + "string", xml_text(content.name), language=content.language_id)
    _sub(general, lom + "language", content.language_id)
    _sub(
        _sub(general, lom + "description"),
        lom + "string",
        xml_text(content.headline),
        language=content.language_id,
    )

    title = xml_text(content.name)
    organizations = _sub(root, cp + "organizations", default=IDS["organization"])
    organization = _sub(organizations, cp + "organization", identifier=IDS["organization"])
    _sub(organization, cp + "title", title)
    item = _sub(organization, cp + "item", identifier=IDS["item"], identifierref=IDS["resource"])
    _sub(item, cp + "title", title)
    sequencing = _sub(item, imsss + "sequencing")
    if content.assessment is not None:
        # Satisfied by measure: the LMS hands the threshold to the SCO as cmi.scaled_passing_score
        # and judges passed/failed from cmi.score.scaled.
        objectives = _sub(sequencing, imsss + "objectives")
        primary = _sub(
            objectives, imsss + "primaryObjective", objectiveID="PRIMARY-OBJECTIVE", satisfiedByMeasure="true"
        )
        _sub(primary, imsss + "minNormalizedMeasure", _decimal(content.assessment.passing_score_percent / 100))
    # The SCO reports completion (and success, when it has an assessment) itself.
    _sub(
        sequencing,
        imsss + "deliveryControls",
        completionSetByContent="true",
        objectiveSetByContent="true",
    )
    # The SCO has its own Previous/Next: the LMS's flow buttons would only leave the course.
    interface = _sub(_sub(item, adlnav + "presentation"), adlnav + "navigationInterface")
    for control in ("continue", "previous"):
        _sub(interface, adlnav + "hideLMSUI", control)
    _sub(_sub(organization, imsss + "sequencing"), imsss + "controlMode", choice="true", flow="true")

    _add_sco_resource(root, cp=cp, files=files, scorm_type=f"{{{ADLCP}}}scormType")
    return root


def _add_sco_resource(root, *, cp: str, files: list[str], scorm_type: str) -> None:
    """The one resource: the SCO, launched by the first file, listing every file of the package."""
    resources = _sub(root, cp + "resources")
    resource = _sub(
        resources,
        cp + "resource",
        identifier=IDS["resource"],
        type="webcontent",
        href=files[0],
        **{scorm_type: "sco"},
    )
    for path in files:
        _sub(resource, cp + "file", href=path)


def _decimal(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".") if value else "0"
