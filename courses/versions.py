"""
Versions of a course's document: every generated, edited or regenerated document is kept, and the
course shows the latest. Edits replace the whole document (PUT) or merge a patch into it (PATCH,
JSON Merge Patch, RFC 7386), and are checked by the same schema and rules as generated content.
"""

import difflib

import pydantic
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import ApiKey
from core import errors
from courses import citations, queries
from courses import content as course_content
from courses.models import Course, CourseVersion, GenerationJob

Source = CourseVersion.Source
# The top-level parts of a document, for saying what an edit changed.
_PARTS = ("introduction", "wrapup", "assessment", "agreement")


class CourseNotFound(errors.NotFound):
    message = "Course not found."


class VersionNotFound(errors.NotFound):
    message = "Version not found."


class PreconditionRequired(errors.AppError):
    status, code = 428, "PRECONDITION_REQUIRED"
    message = "Send If-Match with the course's current version (its ETag), so an edit never overwrites another."


class VersionConflict(errors.AppError):
    status, code = 412, "VERSION_CONFLICT"

    def __init__(self, current: int):
        super().__init__(
            f"The course is at version {current}: read it again, apply your change to that version, and "
            f'send If-Match: "{current}".'
        )


class CourseBusy(errors.AppError):
    status, code = 409, "COURSE_BUSY"
    message = "A part of this course is being generated again; try again once that job has finished."


class VersionLimitReached(errors.AppError):
    status, code = 409, "VERSION_LIMIT_REACHED"

    def __init__(self):
        super().__init__(f"This course has reached its limit of {settings.COURSE_MAX_VERSIONS} versions.")


class InvalidContent(errors.ValidationError):
    """
    The edited document breaks a rule; the message names the first bad field by its JSON path, and
    `found` (the 400's `errors`) every one the schema found, where there are more.
    """

    def __init__(self, message: str, *, found: list[dict] | None = None):
        super().__init__(message)
        self.found = found

    def problems(self) -> list[dict]:
        return self.found or super().problems()


def course_of(*, api_key: ApiKey, public_id: str) -> Course:
    """:raises CourseNotFound: unless this key created a course with this id"""
    course = queries.course_visible_to(api_key=api_key, public_id=public_id)
    if course is None:
        raise CourseNotFound()
    return course


def versions_of(course: Course) -> list[CourseVersion]:
    """
    The course's versions, newest first (without their documents).
    :raises CourseNotFound: if it was deleted since it was looked up (a course always has its first)
    """
    found = list(course.versions.defer("content").order_by("-number"))
    if not found:
        raise CourseNotFound()
    return found


def version_of(course: Course, *, number: int) -> CourseVersion:
    """The course's version with this number, with its document. :raises VersionNotFound"""
    version = course.versions.filter(number=number).first()
    if version is None:
        raise VersionNotFound()
    version.course = course
    return version


def replace_content(*, api_key: ApiKey, course_public_id: str, if_match: str | None, document) -> Course:
    """
    Make `document` the course's next version, if `if_match` names its current version. The
    document is checked first: a bad one is refused whatever the version.
    :raises CourseNotFound, PreconditionRequired, VersionConflict, CourseBusy, VersionLimitReached
    :raises InvalidContent: if the document breaks a rule of the course schema
    """
    validated(document)
    # A document that does not say its schema version is in the current one.
    return _edit(
        api_key=api_key, course_public_id=course_public_id, if_match=if_match,
        change=lambda current: validated(
            {"schemaVersion": course_content.SCHEMA_VERSION, **document}, course=current
        ),
    )


def patch_content(*, api_key: ApiKey, course_public_id: str, if_match: str | None, patch) -> Course:
    """
    Merge `patch` (RFC 7386) into the course's current document and make the result its next version.
    :raises (as replace_content)
    """
    if not isinstance(patch, dict):
        raise InvalidContent("A merge patch is a JSON object.")
    # Checked before merging: a key in the old casing set to null removes nothing, and would pass.
    _refuse_old_spelling(patch)
    return _edit(
        api_key=api_key, course_public_id=course_public_id, if_match=if_match,
        change=lambda current: validated(merge_patch(current, patch), course=current),
    )


@transaction.atomic(durable=True)
def _edit(*, api_key: ApiKey, course_public_id: str, if_match: str | None, change) -> Course:
    course = course_of(api_key=api_key, public_id=course_public_id)  # another key's course is 404, first
    if if_match is None:
        raise PreconditionRequired()
    # Edits of a course take turns (row lock): of two clients editing the same version at once,
    # the second finds the version moved on and gets 412.
    course = locked(course)
    if course.version not in _versions_in(if_match):
        raise VersionConflict(course.version)
    if is_busy(course=course):
        raise CourseBusy()
    document = change(course.content)
    for field, value in (("languageId", course.language_id), ("format", course.format)):
        if document[field] != value:
            raise InvalidContent(f"content/{field}: must stay {value!r}, the course's own.")
    try:
        document = citations.checked_edit(before=course.content, after=document, deleted_ids=course.deleted_source_ids)
    except citations.InvalidEdit as exc:
        raise InvalidContent(exc.message) from None
    # Compared as the schema reads both, every default written: a document stored before a field
    # existed holds no key for it. One whose very shape the schema no longer reads is compared as it is.
    try:
        before = course_content.read_stored(course.content)
    except pydantic.ValidationError:
        before = None
    if document == (before.model_dump(mode="json") if before else course.content):
        return course  # nothing changed: no version to keep
    _check_limits(
        after=course_content.CourseContent.model_validate(document), before=before, document=document,
        stored=course.content,
    )
    changed = what_changed(course.content, document)
    return record_version(course=course, document=document, source=Source.EDITED, changed=changed)


def locked(course: Course) -> Course:
    """
    The course read again under its row lock: changes of a course take turns.
    :raises CourseNotFound: if it was deleted meanwhile
    """
    course = Course.objects.select_for_update().filter(pk=course.pk).first()
    if course is None:
        raise CourseNotFound()
    return course


def is_busy(*, course: Course) -> bool:
    """Whether a regeneration of the course is waiting or running."""
    unfinished = (GenerationJob.Status.PENDING, GenerationJob.Status.RUNNING)
    return course.regenerations.filter(status__in=unfinished).exists()


def validated(document, *, course: dict | None = None) -> dict:
    """
    The document, validated and tidied by the course schema (as generated content is), as JSON.
    Given the `course`'s current document, every text the edit writes anew must show something.
    :raises InvalidContent: naming the first bad field by its JSON path
    """
    if not isinstance(document, dict):
        raise InvalidContent("The course content is a JSON object.")
    _refuse_old_spelling(document)
    try:
        # Strictly typed: an edit is the client's JSON, where lax validation would read true as 1
        # (a pass mark, a correct answer) and "80" as 80, which the API document refuses. A number
        # without a fraction (80.0) is an integer, as JSON Schema counts it.
        content = course_content.CourseContent.model_validate(
            _whole_numbers_as_integers(document), strict=True,
            context={"kept": frozenset(_texts_of(course))} if course is not None else None,
        )
    except pydantic.ValidationError as exc:
        found = exc.errors(include_url=False, include_input=False)
        path = "/" + "/".join(str(part) for part in found[0]["loc"])
        message = f"content{path if path != '/' else ''}: {found[0]['msg']}"
        if len(found) > 1:
            message += f" ({len(found) - 1} more in `errors`.)"
        problems = [errors.problem(errors.field_path(each["loc"]), each["msg"]) for each in found]
        raise InvalidContent(message, found=problems) from None
    return content.model_dump(mode="json")


def _refuse_old_spelling(document: dict) -> None:
    """:raises InvalidContent: naming the first key spelled as schema versions 1 and 2 did, and its spelling now"""
    found = course_content.old_spelling(document)
    if found is not None:
        pointer, spelling = found
        raise InvalidContent(f"content{pointer}: the document spells this key {spelling}")


def _texts_of(node) -> list[str]:
    if isinstance(node, dict):
        return [text for value in node.values() for text in _texts_of(value)]
    if isinstance(node, list):
        return [text for value in node for text in _texts_of(value)]
    return [node] if isinstance(node, str) else []


def _whole_numbers_as_integers(node):
    if isinstance(node, dict):
        return {key: _whole_numbers_as_integers(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_whole_numbers_as_integers(value) for value in node]
    return int(node) if isinstance(node, float) and node.is_integer() else node


def _check_limits(
    *, after: course_content.CourseContent, before: course_content.CourseContent | None, document: dict,
    stored: dict,
) -> None:
    """
    An edit may not take the course over the limits of what costs its readers: MARKUP_OPENERS_MAX
    characters that open links and emphasis and MARKDOWN_LINES_MAX lines in its Markdown (each costs
    the renderer far more than a character), and DOCUMENT_MAX_BYTES of JSON (so that every course
    read can be sent back whole). A course already over one (from before the rule) can still be
    edited, if not raised.
    :raises InvalidContent:
    """
    openers, openers_before = after.markup_openers(), before.markup_openers() if before else 0
    if _raised_over(openers, limit=course_content.MARKUP_OPENERS_MAX, was=openers_before):
        raise InvalidContent(
            f"content: its Markdown may hold at most {course_content.MARKUP_OPENERS_MAX} of the characters "
            f"that open links and emphasis ({' '.join(course_content.MARKUP_OPENERS)}) in all, unescaped; "
            f"it holds {openers}."
        )
    lines, lines_before = after.markdown_lines(), before.markdown_lines() if before else 0
    if _raised_over(lines, limit=course_content.MARKDOWN_LINES_MAX, was=lines_before):
        raise InvalidContent(
            f"content: its Markdown may hold at most {course_content.MARKDOWN_LINES_MAX} lines in all; "
            f"it holds {lines}."
        )
    size = course_content.size_in_bytes(document)
    if _raised_over(size, limit=course_content.DOCUMENT_MAX_BYTES, was=course_content.size_in_bytes(stored)):
        raise InvalidContent(
            f"content: the document may take at most {course_content.DOCUMENT_MAX_BYTES} bytes as compact "
            f"JSON with characters beyond ASCII escaped; it takes {size}."
        )


def _raised_over(measure: int, *, limit: int, was: int) -> bool:
    return measure > limit and measure > was


def record_version(*, course: Course, document: dict, source: str, changed: str) -> Course:
    """
    Make `document` (checked) the course's next version. Call inside a transaction holding the
    course's row lock.
    :raises VersionLimitReached: at COURSE_MAX_VERSIONS versions
    """
    if course.version >= settings.COURSE_MAX_VERSIONS:
        raise VersionLimitReached()
    course.version += 1
    course.content = document
    course.content_digest = course_content.digest(document)
    course.name, course.headline = document["name"], document["headline"]
    course.updated_at = timezone.now()
    course.save(update_fields=["version", "content", "content_digest", "name", "headline", "updated_at"])
    CourseVersion.objects.create(course=course, number=course.version, content=document, source=source, changed=changed)
    return course


def what_changed(before: dict, after: dict) -> str:
    """The one part an edit changed ("chapter 2", "introduction", …), or "content" for more."""
    changed = []
    if (before.get("name"), before.get("headline")) != (after.get("name"), after.get("headline")):
        changed.append("title")
    for part in _PARTS:
        if before.get(part) != after.get(part):
            changed.append(part)
    old, new = before.get("chapters", []), after.get("chapters", [])
    if len(old) != len(new):
        changed.append("chapters")
    else:
        changed += [f"chapter {number}"
                    for number, (a, b) in enumerate(zip(old, new, strict=True), start=1) if a != b]
    return changed[0] if len(changed) == 1 else "content"


def text_diff(older: dict, newer: dict) -> str:
    """A unified diff of two documents' texts, one line per field (`chapters/2/title: …`)."""
    return "\n".join(
        difflib.unified_diff(_text_lines(older), _text_lines(newer), "older", "newer", lineterm="", n=1)
    )


def _text_lines(node, path: str = "") -> list[str]:
    if isinstance(node, dict):
        return [line for key, value in node.items() for line in _text_lines(value, f"{path}/{key}")]
    if isinstance(node, list):
        return [line for index, value in enumerate(node, start=1) for line in _text_lines(value, f"{path}/{index}")]
    return [f"{path.lstrip('/')}: {line}" for line in str(node).splitlines() or [""]]


def merge_patch(target, patch):
    """RFC 7386: objects merge key by key, null removes a key, anything else replaces."""
    if not isinstance(patch, dict):
        return patch
    merged = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


def _versions_in(if_match: str) -> set[int]:
    """
    The versions an If-Match names, each as `"3"`, `W/"3"` or `3`, in a list separated by commas
    (RFC 9110: the condition holds when any of them is current); anything else names none.
    """
    versions = set()
    for tag in if_match.split(","):
        value = tag.strip()
        value = value[2:] if value.startswith("W/") else value
        value = value.strip('"')
        if value.isascii() and value.isdigit() and len(value) <= 9:
            versions.add(int(value))
    return versions
