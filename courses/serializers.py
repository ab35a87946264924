import functools
import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.formats import iso_utc_ms
from courses import citations, content, quality
from courses.generation import errors as generation_errors
from courses.models import AddOn, Course, CourseVersion, Export, Format, GenerationJob, Language, Part
from courses.quality import readability
from webhooks import destinations

# What a text field accepts, said once for the server and the API document alike: no control
# characters (C0, DEL, C1), and at least one visible character. The blank characters are spelled
# out, so that JSON Schema (JavaScript) and Python read the pattern the same way.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
_BLANK_CODES, _BLANKS = content.BLANK_CODES, content.BLANKS
# U+2028 and U+2029 (line and paragraph separators) are written as `\s`, which stands for them in
# JavaScript and Python alike and adds only characters listed here or control characters: a
# TypeScript client generator writes `\u2028` into a regular expression literal as the character
# itself, which ends the line and the literal, and the generated client would not compile.
_BLANK_CLASS = r"\s" + "".join(f"\\u{code:04x}" for code in _BLANK_CODES if code not in (0x2028, 0x2029))
TEXT_PATTERN = rf"^[^{_CONTROL}]*[^{_CONTROL}{_BLANK_CLASS}][^{_CONTROL}]*$"
_CONTROL_CHARACTERS = re.compile(rf"[{_CONTROL}]")


class StrictCharField(serializers.CharField):
    """
    A string and nothing else (DRF's CharField would turn 42 or true into text). The value is
    checked as sent, so the length the API document states is the length checked (TEXT_PATTERN, in
    linear time), and stored without leading and trailing spaces.
    """

    default_error_messages = {
        "not_a_string": "Must be a string.",
        "control_characters": "Must not contain control characters.",
        "blank": "Must not be blank.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        value = super().to_internal_value(data)
        if _CONTROL_CHARACTERS.search(value):
            self.fail("control_characters")
        if not value.strip(_BLANKS):
            self.fail("blank")
        return value

    def run_validation(self, data=serializers.empty):
        value = super().run_validation(data)  # every check, on the value as sent
        return value.strip() if isinstance(value, str) else value


class StrictChoiceField(serializers.ChoiceField):
    default_error_messages = {"not_a_string": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """
    An integer and nothing else: DRF's IntegerField would take "3" or true. A number with no
    fraction (3.0) is an integer, as JSON Schema counts it.
    """

    default_error_messages = {"not_an_integer": "Must be an integer."}

    def to_internal_value(self, data):
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("not_an_integer")
        return super().to_internal_value(data)


class StrictListField(serializers.ListField):
    default_error_messages = {"not_a_list": "Must be an array."}

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list")
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "type": "string",
        "format": "uri",
        "maxLength": destinations.MAX_URL_LENGTH,
        "pattern": destinations.CALLBACK_URL_PATTERN,
        "description": (
            "HTTPS (or HTTP) URL that receives the event: a host name (not an IP address), an optional "
            "port, and a path and query in ASCII (percent-encode anything else); no user name or "
            "password. Leave it out for no event. The host must resolve to public addresses only: it "
            "is looked up at each delivery, and a private address is never contacted."
        ),
    }
)
class CallbackUrlField(StrictCharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=destinations.MAX_URL_LENGTH, trim_whitespace=False, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return destinations.check_callback_url(value)
        except destinations.UnsafeDestination as exc:
            raise serializers.ValidationError(str(exc)) from None


class UtcMillisecondsField(serializers.DateTimeField):
    """`2026-04-28T17:14:08.000Z`: ISO 8601 in UTC with milliseconds, as the API shows times."""

    def to_representation(self, value):
        return iso_utc_ms(value)


SOURCE_ID_PATTERN = r"^src_[A-Za-z0-9]{22}$"


@extend_schema_field({"type": "string", "pattern": SOURCE_ID_PATTERN, "description": "A source's `id`."})
class SourceIdField(StrictCharField):
    default_error_messages = {"not_a_source_id": "Must be a source id (src_ and 22 letters or digits)."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not re.fullmatch(SOURCE_ID_PATTERN, value):
            self.fail("not_a_source_id")
        return value


# An input whose fields are built once per class, not once per request: DRF deep-copies every
# declared field for each serializer it makes, which for a create request cost more than checking
# the body. Shared fields must only check values: one that reads the serializer's `context` or
# `partial`, or changes itself while validating, does not belong here. (A comment, not a docstring:
# the API document would show a docstring as the description of every input built on it.)
class FieldsBuiltOnce(serializers.Serializer):
    def __init__(self, *args, **kwargs):
        if kwargs.get("partial") or kwargs.get("context"):
            raise TypeError(f"{type(self).__name__} shares its fields: it takes neither partial nor context")
        super().__init__(*args, **kwargs)

    @property
    def fields(self):
        return _fields_built_once(type(self))


@functools.cache
def _fields_built_once(serializer_class: type[serializers.Serializer]):
    # Bound to a serializer of their own, made for this and never given data: the fields' `root`
    # and `parent` are it, whichever instance validates.
    return serializers.Serializer.fields.func(serializer_class())


class CreateJobInput(FieldsBuiltOnce):
    subject = StrictCharField(
        min_length=1, max_length=200,
        help_text="What the course is about and for whom; with `sources`, what to take from them.",
    )
    format = StrictChoiceField(choices=Format.choices, default=Format.ONEPAGE)
    languageId = StrictChoiceField(source="language_id", choices=Language.choices, default=Language.EN_US)
    outline = StrictListField(
        child=StrictCharField(min_length=1, max_length=200), max_length=9, default=list
    )
    addOns = StrictListField(source="add_ons", child=StrictChoiceField(choices=AddOn.choices), default=list)
    callbackUrl = CallbackUrlField(source="callback_url", required=False)
    sources = StrictListField(
        child=SourceIdField(),
        min_length=1,
        max_length=content.SOURCES_MAX,
        required=False,
        help_text=(
            "Build the course from these sources of your key (1 to 10, each `ready`): its chapters follow "
            "their headings (or the `outline`), and every lesson, exercise, article, wrap-up and quiz question "
            "cites them. An id given twice counts once. An unknown, another key's, pending or failed source is "
            "400 `VALIDATION_ERROR` naming it, and no credit is charged."
        ),
    )
    learnerCallbackUrl = CallbackUrlField(
        source="learner_callback_url",
        required=False,
        help_text="Where the events of the course's learners go (learner.started, learner.completed, …); "
        "checked as callbackUrl is. Settable later with PATCH /api/v1/courses/{course_id}.",
    )

    def validate_addOns(self, value):
        return list(dict.fromkeys(value))  # a repeated add-on counts once; order kept


class JobAccepted(serializers.Serializer):
    """The answer to an accepted create request, and to every replay of it (Idempotency-Key)."""

    jobId = serializers.CharField(source="public_id")
    status = serializers.SerializerMethodField(help_text="Always `pending`: the job as it was accepted.")
    pollUrl = serializers.SerializerMethodField(
        help_text="Path of the job's poll endpoint, relative to the service's address (as in `Location`)."
    )

    @extend_schema_field(
        serializers.ChoiceField(choices=[(GenerationJob.Status.PENDING, "Accepted, not started")])
    )
    def get_status(self, job) -> str:
        # A replay answers what the first request was answered, whatever the job has become since.
        return GenerationJob.Status.PENDING

    def get_pollUrl(self, job) -> str:
        return poll_path(job)


def job_accepted(job: GenerationJob) -> dict:
    """The answer to an accepted create or regenerate request (JobAccepted)."""
    return {"jobId": job.public_id, "status": GenerationJob.Status.PENDING, "pollUrl": poll_path(job)}


def poll_path(job: GenerationJob) -> str:
    return f"/api/v1/courses/jobs/{job.public_id}"


class CourseOutput(serializers.Serializer):
    """The course object of interface 2.2, as the poll answer and the course.created event show it."""

    id = serializers.CharField(source="public_id")
    name = serializers.CharField()
    headline = serializers.CharField()
    format = serializers.ChoiceField(choices=Format.choices)
    languageId = serializers.ChoiceField(source="language_id", choices=Language.choices)
    shareUrl = serializers.URLField(source="share_url")
    createdAt = UtcMillisecondsField(source="created_at")


class JobErrorOutput(serializers.Serializer):
    """Why a job failed: show `message`, switch on `code`."""

    message = serializers.CharField(source="error_message", help_text="Safe to show to end users.")
    code = serializers.ChoiceField(source="error_code", choices=generation_errors.FAILURE_CODES)


class JobOutput(serializers.Serializer):
    """The job object of interface 2.1, exactly the table of interface 4.2."""

    jobId = serializers.CharField(source="public_id")
    status = serializers.ChoiceField(choices=GenerationJob.Status.choices)
    progress = serializers.IntegerField(source="reported_progress", min_value=0, max_value=100)
    course = serializers.SerializerMethodField()
    error = JobErrorOutput(source="*", required=False, help_text="Present only when status is failed.")

    @extend_schema_field(
        CourseOutput(allow_null=True, help_text="The course of a completed job; null before, and once the course is deleted.")
    )
    def get_course(self, job):
        return _course_of(job)

    def to_representation(self, job):
        body = super().to_representation(job)
        if job.status != GenerationJob.Status.FAILED:
            del body["error"]
        return body


# The answers of the hottest endpoints, built directly: a DRF serializer copies its fields for every
# instance, which costs more than the rest of a poll. The serializer classes above document these
# shapes (the API document is built from them) and a test holds the two to the same output.


def course_output(course: Course) -> dict:
    """The course object of interface 2.2 (CourseOutput)."""
    return {
        "id": course.public_id,
        "name": course.name,
        "headline": course.headline,
        "format": course.format,
        "languageId": course.language_id,
        "shareUrl": course.share_url,
        "createdAt": iso_utc_ms(course.created_at),
    }


def job_output(job: GenerationJob) -> dict:
    """The job object of interface 2.1 (JobOutput)."""
    body = {
        "jobId": job.public_id,
        "status": job.status,
        "progress": job.reported_progress,
        "course": _course_of(job),
    }
    if job.status == GenerationJob.Status.FAILED:
        body["error"] = job_error(job)
    return body


def _course_of(job: GenerationJob) -> dict | None:
    course = job.result if job.status == GenerationJob.Status.COMPLETED else None
    return None if course is None else course_output(course)


def job_error(job: GenerationJob) -> dict:
    """The error object of a failed job (JobErrorOutput)."""
    return {"message": job.error_message, "code": job.error_code}


class ExportCourseInput(serializers.Serializer):
    format = StrictChoiceField(choices=Export.ExportFormat.choices, default=Export.ExportFormat.SCORM12)
    callbackUrl = CallbackUrlField(source="callback_url", required=False)


class ExportOutput(serializers.Serializer):
    """The export record: the answer to an export request and, with `event`, the course.exported event."""

    courseId = serializers.CharField(source="course.public_id")
    exportId = serializers.CharField(
        source="public_id",
        help_text="The export's id (`exp_…`): `revokeExport` takes its download link down.",
    )
    format = serializers.ChoiceField(choices=Export.ExportFormat.choices)
    downloadUrl = serializers.URLField(
        source="download_url",
        help_text=(
            "Link to the package (a zip), good until the export is revoked or the course deleted (then "
            "`410 Gone`): GET it as it is, with no API key (its unguessable id is the secret, so share it "
            "only with whom may have the course). `/downloads/{export_id}` on the service, described as "
            "`downloadExport`."
        ),
    )
    shareUrl = serializers.URLField(source="course.share_url", help_text="The course's public preview page.")
    exportedAt = UtcMillisecondsField(source="exported_at")
    version = serializers.IntegerField(min_value=1, help_text="The version of the course the package holds.")


def export_output(export: Export) -> dict:
    return ExportOutput(export).data


# Courses, their versions and edits ---------------------------------------------------------------

# The course document as the API shows and takes it: courses.content.CourseContent, whose JSON
# schema the API document carries (config/openapi.py).
CONTENT_SCHEMA = {"$ref": "#/components/schemas/CourseContent"}


@extend_schema_field(CONTENT_SCHEMA)
class ContentField(serializers.JSONField):
    pass


class CourseDetailOutput(CourseOutput):
    """The course object plus its version and whole document (`GET /api/v1/courses/{id}`)."""

    version = serializers.IntegerField(min_value=1, help_text="The latest version; also the answer's ETag.")
    content = ContentField(help_text="The course document of that version.")


class VersionOutput(serializers.Serializer):
    version = serializers.IntegerField(source="number", min_value=1)
    createdAt = UtcMillisecondsField(source="created_at")
    source = serializers.ChoiceField(choices=CourseVersion.Source.choices)
    changed = serializers.CharField(help_text='What changed from the version before: "chapter 3", "assessment", … or "content".')


class VersionListOutput(serializers.Serializer):
    courseId = serializers.CharField()
    versions = VersionOutput(many=True, help_text="Newest first.")


class VersionDetailOutput(VersionOutput):
    courseId = serializers.CharField(source="course.public_id")
    content = ContentField()


def course_detail_output(course: Course) -> dict:
    content = citations.with_deleted_sources(course.content, course.deleted_source_ids)
    return {**course_output(course), "version": course.version, "content": content}


def version_list_output(course: Course, versions: list[CourseVersion]) -> dict:
    return {"courseId": course.public_id, "versions": VersionOutput(versions, many=True).data}


def version_detail_output(version: CourseVersion) -> dict:
    body = VersionDetailOutput(version).data
    body["content"] = citations.with_deleted_sources(version.content, version.course.deleted_source_ids)
    return body


class RegenerateInput(serializers.Serializer):
    target = StrictChoiceField(choices=Part.choices, source="part")
    chapter = StrictIntegerField(
        min_value=1, max_value=9, required=False, help_text="With target `chapter`: which one, from 1."
    )
    instructions = StrictCharField(
        max_length=1000, required=False, help_text="What to change or stress, in plain words (for the model)."
    )
    callbackUrl = CallbackUrlField(source="callback_url", required=False)

    def validate(self, data):
        if data["part"] == Part.CHAPTER and "chapter" not in data:
            raise serializers.ValidationError({"chapter": "Required with target chapter."})
        if data["part"] != Part.CHAPTER and "chapter" in data:
            raise serializers.ValidationError({"chapter": "Only with target chapter."})
        return data
# --- the quality report (courses.quality) ---------------------------------------------------------


# The values of the report's enums (named in the document by settings.SPECTACULAR_SETTINGS).
QUALITY_PARTS = ("question", "quiz", "objective", "chapter", "lesson")
READABILITY_FORMULAS = tuple(name for name, *_weights in readability.FORMULAS.values())
READABILITY_BANDS = tuple(band for _lowest, band in readability.BANDS)


class QualityFindingOutput(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=list(quality.RULES), help_text="The rule: a stable code (README: Quality, the rule list)."
    )
    severity = serializers.ChoiceField(
        choices=list(quality.SEVERITIES),
        help_text="`high`: learners can pass by it; `medium`: a flaw to fix; `low`: worth a look.",
    )
    part = serializers.ChoiceField(choices=QUALITY_PARTS, help_text="What the rule looks at.")
    where = serializers.CharField(
        help_text="A JSON Pointer into the course document: `/assessment/questions/3`, `/assessment`, "
        "`/chapters/0/objectives/1`, `/chapters/2`, `/chapters/0/lessons/1`."
    )
    message = serializers.CharField(help_text="What is wrong and how to fix it, in English.")
    ruleVersion = serializers.IntegerField(source="rule_version", min_value=1)


class QualityObjectiveOutput(serializers.Serializer):
    id = serializers.CharField()
    where = serializers.CharField(help_text="A JSON Pointer into the course document.")
    chapter = serializers.IntegerField(min_value=0, help_text="Position of the chapter, from 0.")
    verb = serializers.CharField()
    object = serializers.CharField()
    statement = serializers.CharField(help_text="Verb and object as one phrase, in the course language.")
    bloomLevel = serializers.ChoiceField(source="bloom_level", choices=list(content.BLOOM_LEVELS))
    questions = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        help_text="Positions (from 0) of the assessment questions that test it.",
    )


class ReadabilityOutput(serializers.Serializer):
    formula = serializers.ChoiceField(
        choices=READABILITY_FORMULAS,
        help_text="The reading-ease formula of the course language.",
    )
    score = serializers.FloatField(min_value=0, max_value=100, help_text="Reading ease: higher is easier.")
    band = serializers.ChoiceField(choices=READABILITY_BANDS)
    words = serializers.IntegerField(min_value=1)
    sentences = serializers.IntegerField(min_value=1)
    wordsPerSentence = serializers.FloatField(source="words_per_sentence", min_value=0)
    syllablesPerWord = serializers.FloatField(source="syllables_per_word", min_value=0)


class LessonReadabilityOutput(serializers.Serializer):
    where = serializers.CharField(help_text="A JSON Pointer into the course document.")
    chapter = serializers.IntegerField(min_value=0)
    lesson = serializers.IntegerField(min_value=0)
    title = serializers.CharField()
    readability = ReadabilityOutput(allow_null=True, help_text="Null for a lesson without words to read.")


class QualitySummaryOutput(serializers.Serializer):
    score = serializers.IntegerField(
        min_value=0, max_value=100, help_text="100 less 15 per high, 5 per medium and 1 per low finding."
    )
    findings = serializers.IntegerField(min_value=0)
    high = serializers.IntegerField(min_value=0)
    medium = serializers.IntegerField(min_value=0)
    low = serializers.IntegerField(min_value=0)
    questions = serializers.IntegerField(min_value=0)
    questionsWithFindings = serializers.IntegerField(source="questions_with_findings", min_value=0)
    objectives = serializers.IntegerField(min_value=0)
    objectivesTested = serializers.IntegerField(source="objectives_tested", min_value=0)
    lessons = serializers.IntegerField(min_value=0)
    lessonsWithFindings = serializers.IntegerField(source="lessons_with_findings", min_value=0)


class CourseQualityOutput(serializers.Serializer):
    """The quality report of a course's current content."""

    courseId = serializers.SerializerMethodField()
    languageId = serializers.ChoiceField(source="language_id", choices=Language.choices)
    rulesVersion = serializers.IntegerField(source="rules_version", min_value=1)
    summary = QualitySummaryOutput()
    findings = QualityFindingOutput(many=True)
    objectives = QualityObjectiveOutput(many=True)
    untestedObjectives = serializers.ListField(
        source="untested_objectives",
        child=serializers.CharField(),
        help_text="Ids of the objectives that no question tests (in a course with an assessment).",
    )
    readability = LessonReadabilityOutput(many=True)

    def get_courseId(self, report) -> str:
        return self.context["course"].public_id


class QualityInput(serializers.Serializer):
    version = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)


def quality_output(course: Course, report) -> dict:
    return CourseQualityOutput(report, context={"course": course}).data
