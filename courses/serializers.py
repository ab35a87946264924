import re

from rest_framework import serializers

from config.formats import iso_utc_ms
from courses.models import AddOn, Course, Export, Format, GenerationJob, Language
from webhooks import destinations

_CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class StrictCharField(serializers.CharField):
    """A string and nothing else: DRF's CharField would turn 42 or true into text."""

    default_error_messages = {
        "not_a_string": "Must be a string.",
        "control_characters": "Must not contain control characters.",
    }

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        value = super().to_internal_value(data)
        if _CONTROL_CHARACTERS.search(value):
            self.fail("control_characters")
        return value


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


class CallbackUrlField(StrictCharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=2048, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return destinations.check_callback_url(value)
        except destinations.UnsafeDestination as exc:
            raise serializers.ValidationError(str(exc)) from None


class CreateJobInput(serializers.Serializer):
    subject = StrictCharField(min_length=1, max_length=200)
    format = StrictChoiceField(choices=Format.choices, default=Format.ONEPAGE)
    languageId = StrictChoiceField(source="language_id", choices=Language.choices, default=Language.EN_US)
    outline = StrictListField(
        child=StrictCharField(min_length=1, max_length=200), max_length=9, default=list
    )
    addOns = StrictListField(source="add_ons", child=StrictChoiceField(choices=AddOn.choices), default=list)
    callbackUrl = CallbackUrlField(source="callback_url", default="")

    def validate_addOns(self, value):
        return list(dict.fromkeys(value))  # a repeated add-on counts once; order kept


class JobAccepted(serializers.Serializer):
    jobId = serializers.CharField(source="public_id")
    status = serializers.CharField()
    pollUrl = serializers.SerializerMethodField()

    def get_pollUrl(self, job) -> str:
        return poll_path(job)


def poll_path(job: GenerationJob) -> str:
    return f"/api/v1/courses/jobs/{job.public_id}"


def course_output(course: Course) -> dict:
    """The course object of interface 2.2, as the poll answer and the course.created event show it."""
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
    """The job object of interface 2.1, exactly the table of interface 4.2."""
    Status = GenerationJob.Status
    body = {
        "jobId": job.public_id,
        "status": job.status,
        "progress": {Status.PENDING: 0, Status.COMPLETED: 100, Status.FAILED: 0}.get(job.status, job.progress),
        "course": course_output(job.course) if job.status == Status.COMPLETED else None,
    }
    if job.status == Status.FAILED:
        body["error"] = job_error(job)
    return body


def job_error(job: GenerationJob) -> dict:
    return {"message": job.error_message, "code": job.error_code}


class ExportCourseInput(serializers.Serializer):
    format = StrictChoiceField(choices=Export.ExportFormat.choices, default=Export.ExportFormat.SCORM12)
    callbackUrl = CallbackUrlField(source="callback_url", default="")


def export_output(export: Export) -> dict:
    """The export record: the answer to an export request and, with `event`, the course.exported event."""
    return {
        "courseId": export.course.public_id,
        "format": export.format,
        "downloadUrl": export.download_url,
        "shareUrl": export.course.share_url,
        "exportedAt": iso_utc_ms(export.exported_at),
    }
