"""The zip: imsmanifest.xml, the SCO (the course player with the SCORM runtime) and the version's control
documents, all at the root."""

import functools
from pathlib import Path

from courses.content import CourseContent
from exports import packaging
from exports.player import page
from exports.scorm.manifest import VERSIONS, build_manifest
from exports.scorm.schemas import XSD_ROOT

MANIFEST = "imsmanifest.xml"
# Finds the LMS's SCORM API and speaks its data model (1.2 or 2004) for the player.
RUNTIME_SCRIPT = Path(__file__).resolve().parent / "assets" / "scorm-api.js"


@functools.cache
def control_documents(schema_folder: str) -> dict[str, bytes]:
    """Every file of the version's schema folder, by its path in the package (read once)."""
    folder = XSD_ROOT / schema_folder
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def build_package(*, content: CourseContent, course_id: str, format: str) -> bytes:
    """The SCORM package of the course in the given export format, as zip bytes."""
    version = VERSIONS[format]
    runtime = page.Runtime(path="assets/scorm-api.js", source=RUNTIME_SCRIPT, version=version.runtime)
    files = page.files(content=content, runtime=runtime)
    manifest = build_manifest(version=version, content=content, course_id=course_id, files=list(files))
    return packaging.zip_files(
        [(MANIFEST, manifest), *files.items(), *control_documents(version.schema_folder).items()]
    )
