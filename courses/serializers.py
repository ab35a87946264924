import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.formats import iso_utc_ms
from courses.generation import errors as generation_errors
from courses.models import AddOn, Course, Export, Format, GenerationJob, Language
from webhooks import destinations

# What a text field accepts, said once for the server and the API document alike: no control
# characters (C0, DEL, C1), and at least one visible character. The blank characters are spelled
# out, so that JSON Schema (JavaScript) and Python read the pattern the same way.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
# Spaces, and the invisible formatting characters (soft hyphen, zero-width and bidi controls).
_BLANK_CODES = [
    0x20, 0xA0, 0xAD, 0x1680, 0x180E, *range(0x2000, 0x2010), 0x2028, 0x2029, *range(0x202A, 0x2030),
    0x205F, *range(0x2060, 0x2065), *range(0x2066, 0x2070), 0x3000, 0xFEFF,
]
_BLANKS = "".join(map(chr, _BLANK_CODES))
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


class CreateJobInput(serializers.Serializer):
    subject = StrictCharField(min_length=1, max_length=200)
    format = StrictChoiceField(choices=Format.choices, default=Format.ONEPAGE)
    languageId = StrictChoiceField(source="language_id", choices=Language.choices, default=Language.EN_US)
    outline = StrictListField(
        child=StrictCharField(min_length=1, max_length=200), max_length=9, default=list
    )
    addOns = StrictListField(source="add_ons", child=StrictChoiceField(choices=AddOn.choices), default=list)
    callbackUrl = CallbackUrlField(source="callback_url", required=False)

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

    @extend_schema_field(CourseOutput(allow_null=True))
    def get_course(self, job):
        return CourseOutput(job.course).data if job.status == GenerationJob.Status.COMPLETED else None

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
        "course": course_output(job.course) if job.status == GenerationJob.Status.COMPLETED else None,
    }
    if job.status == GenerationJob.Status.FAILED:
        body["error"] = job_error(job)
    return body


def job_error(job: GenerationJob) -> dict:
    """The error object of a failed job (JobErrorOutput)."""
    return {"message": job.error_message, "code": job.error_code}


class ExportCourseInput(serializers.Serializer):
    format = StrictChoiceField(choices=Export.ExportFormat.choices, default=Export.ExportFormat.SCORM12)
    callbackUrl = CallbackUrlField(source="callback_url", required=False)


class ExportOutput(serializers.Serializer):
    """The export record: the answer to an export request and, with `event`, the course.exported event."""

    courseId = serializers.CharField(source="course.public_id")
    format = serializers.ChoiceField(choices=Export.ExportFormat.choices)
    downloadUrl = serializers.URLField(
        source="download_url",
        help_text=(
            "Permanent link to the package (a zip): GET it as it is, with no API key (its unguessable id "
            "is the secret, so share it only with whom may have the course). `/downloads/{export_id}` on "
            "the service, described as `downloadExport`."
        ),
    )
    shareUrl = serializers.URLField(source="course.share_url", help_text="The course's public preview page.")
    exportedAt = UtcMillisecondsField(source="exported_at")


def export_output(export: Export) -> dict:
    return ExportOutput(export).data
