"""
The cmi5 package itself: cmi5.xml validates against the specification's CourseStructure.xsd (the
project's own copy) for every combination of add-ons and every language, the validation bites, the
course structure says what the course is, and the AU is the course player with the cmi5 runtime,
self-contained.
"""

import io
import re
import zipfile

import pytest
from lxml import etree

from core.languages import Language
from courses.content import CourseContent
from exports.cmi5 import package, schemas
from tests.support import samples

COURSE_IRI = "https://courses.example.com/go/cou_AbCdEfGhIjKlMnOpQrStUv"
NS = "{https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd}"
ADD_ON_SETS = [samples.ALL_ADD_ONS, [], *([add_on] for add_on in samples.ALL_ADD_ONS)]


def build(**document) -> zipfile.ZipFile:
    content = CourseContent.model_validate(samples.course_document(**document))
    return zipfile.ZipFile(io.BytesIO(package.build_package(content=content, course_iri=COURSE_IRI)))


def structure_of(archive: zipfile.ZipFile) -> etree._Element:
    return etree.fromstring(archive.read("cmi5.xml"))


def edited(xml: bytes, edit) -> bytes:
    root = etree.fromstring(xml)
    edit(root)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


@pytest.mark.parametrize("language_id", Language.values)
@pytest.mark.parametrize("add_ons", ADD_ON_SETS, ids=lambda add_ons: "+".join(add_ons) or "no-add-on")
def test_course_structure_validates_against_the_cmi5_schema(language_id, add_ons):
    archive = build(chapters=9, add_ons=add_ons, language_id=language_id)

    schemas.validate_course_structure(archive.read("cmi5.xml"))


def test_course_structure_with_hostile_text_still_validates():
    # Control characters never reach a package (the course schema refuses them); these XML cannot
    # carry either, and are dropped.
    archive = build(text='</title><x a="1"> & \ud7ff 😀 \ufffe\uffff ' + "long " * 50)

    schemas.validate_course_structure(archive.read("cmi5.xml"))
    title = structure_of(archive).findtext(f"{NS}course/{NS}title/{NS}langstring")
    assert title.startswith('Intro to SQL</title><x a="1"> & \ud7ff 😀  long')


def test_validation_rejects_a_course_structure_that_breaks_the_schema():
    good = build().read("cmi5.xml")

    def au(root):
        return root.find(f"{NS}au")

    def course(root):
        return root.find(f"{NS}course")

    broken = [
        edited(good, lambda root: au(root).remove(au(root).find(f"{NS}url"))),
        edited(good, lambda root: au(root).set("moveOn", "Attended")),
        edited(good, lambda root: au(root).set("masteryScore", "1.5")),
        edited(good, lambda root: root.remove(au(root))),
        # the title after the description
        edited(good, lambda root: course(root).append(course(root).find(f"{NS}title"))),
        b"<courseStructure",
    ]

    schemas.validate_course_structure(good)
    for structure in broken:
        with pytest.raises(schemas.CourseStructureInvalid):
            schemas.validate_course_structure(structure)


def test_course_and_au_are_identified_by_the_course_share_url_in_the_course_language():
    root = structure_of(build(language_id="pt-BR", name="Introdução ao SQL", headline="Consultas sem medo"))

    course, au = root.find(f"{NS}course"), root.find(f"{NS}au")
    assert course.get("id") == COURSE_IRI
    assert au.get("id") == f"{COURSE_IRI}/au"
    for element in (course, au):
        title = element.find(f"{NS}title/{NS}langstring")
        description = element.find(f"{NS}description/{NS}langstring")
        assert (title.get("lang"), title.text) == ("pt-BR", "Introdução ao SQL")
        assert (description.get("lang"), description.text) == ("pt-BR", "Consultas sem medo")
    assert au.findtext(f"{NS}url") == "index.html"
    assert au.get("launchMethod") == "AnyWindow"
    assert len(root.findall(f"{NS}au")) == 1 and root.find(f"{NS}block") is None


def test_au_with_an_assessment_needs_completion_and_a_pass_at_the_pass_mark():
    au = structure_of(build()).find(f"{NS}au")

    assert au.get("moveOn") == "CompletedAndPassed"
    assert au.get("masteryScore") == "0.8"


def test_au_without_an_assessment_needs_completion_and_has_no_mastery_score():
    au = structure_of(build(add_ons=["wrapup", "agreement"])).find(f"{NS}au")

    assert au.get("moveOn") == "Completed"
    assert au.get("masteryScore") is None


def test_package_holds_the_course_structure_at_its_root_and_the_player_with_the_cmi5_runtime():
    archive = build()

    names = archive.namelist()
    assert names == ["cmi5.xml", "index.html", "assets/sco.css", "assets/cmi5.js", "assets/sco.js"]
    html = archive.read("index.html").decode("utf-8")
    assert '<script src="assets/cmi5.js"></script>\n<script src="assets/sco.js"></script>' in html
    assert all(info.external_attr >> 16 == 0o644 for info in archive.infolist())


def test_au_is_self_contained_and_may_connect_only_to_web_origins():
    archive = build()
    html = archive.read("index.html").decode("utf-8")
    names = set(archive.namelist())

    tags = r"script|link|img|iframe|source|video|audio|embed|object"
    loaded = re.findall(rf'<(?:{tags})\b[^>]*?(?:src|href)="([^"]+)"', html)
    assert loaded and all(reference in names or reference == "data:," for reference in loaded)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert policy.startswith("default-src 'self'; connect-src 'self' https: http:; script-src 'self';")
    for name in ("assets/sco.js", "assets/sco.css"):
        assert not re.search(rb"https?://", archive.read(name)), name
    # The runtime names xAPI and cmi5 identifiers, and loads nothing.
    runtime = archive.read("assets/cmi5.js").decode("utf-8")
    for iri in re.findall(r"https?://[^\s\"']+", runtime):
        assert iri.startswith(("http://adlnet.gov/expapi/", "https://w3id.org/xapi/cmi5/")), iri


def test_scorm_packages_keep_connecting_nowhere():
    from exports.scorm import package as scorm_package

    content = CourseContent.model_validate(samples.course_document())
    data = scorm_package.build_package(content=content, course_id="cou_x", format="scorm12")
    html = zipfile.ZipFile(io.BytesIO(data)).read("index.html").decode("utf-8")

    assert "connect-src" not in html
    assert "default-src 'self'; script-src 'self';" in html


def test_au_speaks_the_course_language():
    html = build(language_id="fr-FR").read("index.html").decode("utf-8")

    assert '<html lang="fr-FR">' in html
    assert ">Quitter le cours</button>" in html and ">Suivant</button>" in html
