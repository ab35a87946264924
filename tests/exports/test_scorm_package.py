"""
The SCORM package itself: the manifest validates against the official XSDs of its version (the
project's own copies), the validation bites, the package carries its control documents and lists
every file, and the SCO is self-contained, in the course's language, with all course text escaped.
"""

import io
import json
import posixpath
import re
import time
import zipfile

import pytest
from lxml import etree

from courses.content import CourseContent
from exports.models import Export
from exports.player import page as player
from exports.scorm import manifest, package, schemas
from tests.support import samples

FORMATS = ["scorm12", "scorm2004", "scorm2004_4"]
FOLDER = {"scorm12": "scorm12", "scorm2004": "scorm2004-3", "scorm2004_4": "scorm2004-4"}
XSI = "{http://www.w3.org/2001/XMLSchema-instance}"


def build(format: str, **document) -> zipfile.ZipFile:
    content = CourseContent.model_validate(samples.course_document(**document))
    data = package.build_package(content=content, course_id="cou_AbCdEfGhIjKlMnOpQrStUv", format=format)
    return zipfile.ZipFile(io.BytesIO(data))


def manifest_of(archive: zipfile.ZipFile) -> etree._Element:
    return etree.fromstring(archive.read("imsmanifest.xml"))


def validate(format: str, xml: bytes) -> None:
    schemas.validate_manifest(folder=FOLDER[format], manifest=xml)


def edited(xml: bytes, edit) -> bytes:
    root = etree.fromstring(xml)
    edit(root)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def test_every_scorm_export_format_has_a_package_version():
    assert set(manifest.VERSIONS) == set(Export.ExportFormat.values) - {Export.ExportFormat.CMI5}


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("add_ons", [samples.ALL_ADD_ONS, []], ids=["every-add-on", "no-add-on"])
def test_manifest_validates_against_the_official_schemas_of_its_version(format, add_ons):
    archive = build(format, chapters=9, add_ons=add_ons)

    validate(format, archive.read("imsmanifest.xml"))


@pytest.mark.parametrize("format", FORMATS)
def test_manifest_with_hostile_text_still_validates(format):
    # Control characters never reach a package: the course schema refuses them.
    archive = build(format, text='</title><x a="1"> & \ud7ff 😀 ' + "long " * 50)

    validate(format, archive.read("imsmanifest.xml"))


@pytest.mark.parametrize("format", FORMATS)
def test_validation_rejects_a_manifest_that_breaks_its_schema(format):
    good = build(format).read("imsmanifest.xml")
    without_identifier = edited(good, lambda root: root.find(".//{*}resource").attrib.pop("identifier"))
    unknown_element = edited(good, lambda root: etree.SubElement(root.find("{*}organizations"), root.tag[:-8] + "bogus"))
    misplaced_metadata = edited(good, lambda root: root.append(root.find("{*}metadata")))

    for broken in (without_identifier, unknown_element, misplaced_metadata, b"<manifest"):
        with pytest.raises(schemas.ManifestInvalid):
            validate(format, broken)


def test_scorm12_validation_checks_the_adl_extensions():
    good = build("scorm12").read("imsmanifest.xml")

    def unknown_scorm_type(root):
        root.find(".//{*}resource").set("{http://www.adlnet.org/xsd/adlcp_rootv1p2}scormtype", "lesson")

    def unknown_adl_element(root):
        etree.SubElement(root.find(".//{*}item"), "{http://www.adlnet.org/xsd/adlcp_rootv1p2}mastery")

    for broken in (edited(good, unknown_scorm_type), edited(good, unknown_adl_element)):
        with pytest.raises(schemas.ManifestInvalid, match="adlcp_rootv1p2"):
            validate("scorm12", broken)


def test_third_edition_schemas_reject_what_only_the_fourth_edition_allows():
    good = build("scorm2004").read("imsmanifest.xml")

    def add_completion_threshold(root):
        item = root.find(".//{*}item")
        threshold = etree.Element("{http://www.adlnet.org/xsd/adlcp_v1p3}completionThreshold")
        threshold.set("completedByMeasure", "true")
        threshold.set("minProgressMeasure", "0.9")
        item.insert(1, threshold)

    fourth_edition_feature = edited(good, add_completion_threshold)

    validate("scorm2004_4", fourth_edition_feature)
    with pytest.raises(schemas.ManifestInvalid, match="completedByMeasure"):
        validate("scorm2004", fourth_edition_feature)


@pytest.mark.parametrize("format", FORMATS)
def test_package_carries_the_control_documents_its_manifest_names_and_all_they_import(format):
    archive = build(format)
    names = set(archive.namelist())
    locations = manifest_of(archive).get(f"{XSI}schemaLocation").split()

    named = locations[1::2]
    assert named and all(name in names for name in named)
    for name in (n for n in names if n.endswith(".xsd")):
        text = re.sub(r"<!--.*?-->", "", archive.read(name).decode("utf-8"), flags=re.S)
        for reference in re.findall(r'schemaLocation\s*=\s*"([^"]+)"', text):
            if not reference.startswith("http"):
                assert posixpath.normpath(posixpath.join(posixpath.dirname(name), reference)) in names
    for path in (schemas.XSD_ROOT / FOLDER[format]).rglob("*"):
        if path.is_file():
            relative = path.relative_to(schemas.XSD_ROOT / FOLDER[format]).as_posix()
            assert archive.read(relative) == path.read_bytes()


@pytest.mark.parametrize("format", FORMATS)
def test_manifest_lists_every_file_of_the_sco_and_launches_one_sco(format):
    archive = build(format)
    root = manifest_of(archive)
    control_documents = {
        path.relative_to(schemas.XSD_ROOT / FOLDER[format]).as_posix()
        for path in (schemas.XSD_ROOT / FOLDER[format]).rglob("*")
        if path.is_file()
    }

    resources = root.findall(".//{*}resource")
    listed = [file.get("href") for file in resources[0].findall("{*}file")]
    content_files = set(archive.namelist()) - control_documents - {"imsmanifest.xml"}
    assert len(root.findall(".//{*}organization")) == 1
    assert len(root.findall(".//{*}item")) == 1
    assert len(resources) == 1
    assert resources[0].get("href") == "index.html"
    assert sorted(listed) == sorted(content_files)
    assert archive.namelist()[0] == "imsmanifest.xml"


@pytest.mark.parametrize("format", FORMATS)
def test_mastery_score_in_the_manifest_is_the_assessment_passing_score(format):
    root = manifest_of(build(format))

    if format == "scorm12":
        assert root.findtext(".//{http://www.adlnet.org/xsd/adlcp_rootv1p2}masteryscore") == "80"
    else:
        primary = root.find(".//{http://www.imsglobal.org/xsd/imsss}primaryObjective")
        assert primary.get("satisfiedByMeasure") == "true"
        assert primary.findtext("{http://www.imsglobal.org/xsd/imsss}minNormalizedMeasure") == "0.8"


@pytest.mark.parametrize("format", FORMATS)
def test_sco_is_self_contained_and_loads_nothing_from_outside(format):
    archive = build(format)
    html = archive.read("index.html").decode("utf-8")
    names = set(archive.namelist())

    loaded = re.findall(r'<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*?(?:src|href)="([^"]+)"', html)
    assert loaded and all(reference in names or reference == "data:," for reference in loaded)
    assert '<link rel="icon" href="data:,">' in html  # no request for a favicon the package lacks
    assert "default-src 'self'" in html
    for name in ("assets/sco.js", "assets/scorm-api.js", "assets/sco.css"):
        assert not re.search(rb"https?://", archive.read(name)), name


@pytest.mark.parametrize("format", FORMATS)
def test_sco_renders_every_add_on(format):
    html = build(format, chapters=2).read("index.html").decode("utf-8")

    kinds = re.findall(r'class="sco-page" id="page-\d+" data-kind="(\w+)"', html)
    assert kinds == ["introduction", "chapter", "chapter", "wrapup", "assessment", "agreement", "finish"]
    assert html.count('class="sco-box sco-exercise"') == 4
    assert html.count('class="sco-box sco-video"') == 4
    assert html.count('class="sco-article"') == 2
    assert html.count('class="sco-question"') == 5
    assert "https://www.youtube.com/results?search_query=Intro+to+SQL+lesson+1.1" in html
    assert "<strong>Bold</strong>" in html


def test_sco_speaks_the_course_language():
    archive = build("scorm2004_4", language_id="pt-BR")
    html = archive.read("index.html").decode("utf-8")
    root = manifest_of(archive)

    assert '<html lang="pt-BR">' in html
    assert ">Próximo</button>" in html and ">Avaliação</h1>" in html
    assert root.findtext(".//{http://ltsc.ieee.org/xsd/LOM}language") == "pt-BR"
    assert root.find(".//{http://ltsc.ieee.org/xsd/LOM}title/{*}string").get("language") == "pt-BR"


def test_course_text_is_escaped_in_the_sco():
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    html = build("scorm12", text=hostile).read("index.html").decode("utf-8")

    assert "<script>alert" not in html
    assert "<img" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert len(re.findall(r"<script\b", html)) == 3  # the config (JSON, not run) and the two assets
    assert not re.search(r"\son\w+=", html.replace("onerror=alert(1)&gt;", ""))


@pytest.mark.parametrize("format", FORMATS)
def test_the_answer_key_is_out_of_plain_sight(format):
    # A package scored inside an LMS must carry its answers: not as readable attributes or indices,
    # but as digests the player matches the chosen options against (a deterrent, not a lock).
    document = samples.course_document(chapters=1)
    for question, right in zip(document["assessment"]["questions"], (0, 1, 2, 1, 0), strict=True):
        question["options"] = ["One", "Two", "Three"]
        question["correctIndex"] = right
    content = CourseContent.model_validate(document)
    archive = zipfile.ZipFile(io.BytesIO(package.build_package(content=content, course_id="cou_key", format=format)))
    html = archive.read("index.html").decode("utf-8")

    config = json.loads(re.search(r'<script id="sco-config" type="application/json">(.*?)</script>', html, re.S)[1])
    assert set(config) == {"version", "passPercent", "key", "words"}
    assert re.fullmatch(r"[0-9a-f]{16}", config["key"]["salt"])
    assert all(re.fullmatch(r"[0-9a-f]{8}", mark) for mark in config["key"]["marks"])
    assert len(set(config["key"]["marks"])) == 5  # the same option is a mark of its own per question
    assert "data-correct" not in html and "correctIndex" not in html and "[0, 1, 2, 1, 0]" not in html
    other = CourseContent.model_validate({**document, "assessment": {
        **document["assessment"], "questions": [{**q, "prompt": q["prompt"] + "?"} for q in document["assessment"]["questions"]],
    }})
    assert player.answer_key(other.assessment)["marks"] != config["key"]["marks"]  # salted per assessment


def test_nine_chapter_course_with_every_add_on_builds_quickly(capsys):
    content = CourseContent.model_validate(samples.course_document(chapters=9))
    package.build_package(content=content, course_id="cou_warmup", format="scorm12")  # templates, files
    started = time.perf_counter()

    builds = {
        format: package.build_package(content=content, course_id="cou_timed", format=format) for format in FORMATS
    }

    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(f"\n3 SCORM packages of a 9-chapter course with every add-on built in {elapsed * 1000:.0f} ms")
    assert all(zipfile.ZipFile(io.BytesIO(data)).testzip() is None for data in builds.values())
