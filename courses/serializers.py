from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api import pagination
from api.fields import (
    CallbackUrlField,
    Rfc3339Field,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictListField,
    UtcMillisecondsField,
)
from api.inputs import Input
from core.languages import Language
from core.outbound import urls
from courses import citations, content, quality
from courses.generation import errors as generation_errors
from courses.models import AddOn, Course, CourseVersion, Format, GenerationJob, Part
from courses.quality import readability
from sources.serializers import SourceIdField


class CreateJobInput(Input):
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


class CourseListItem(CourseOutput):
    """The course object plus its latest version and when that was made (`listCourses`)."""

    version = serializers.IntegerField(min_value=1, help_text="The latest version.")
    updatedAt = UtcMillisecondsField(source="updated_at", help_text="When the latest version was made.")


class CourseList(serializers.Serializer):
    courses = CourseListItem(many=True, help_text="Newest first.")
    nextCursor = serializers.CharField(
        allow_null=True, help_text="Pass as `cursor` for the next page; null on the last page."
    )


class ListCoursesInput(Input):
    languageId = StrictChoiceField(source="language_id", choices=Language.choices, required=False)
    createdAfter = Rfc3339Field(source="created_after", required=False)
    cursor = pagination.CursorField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)


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
        course = job.result if job.status == GenerationJob.Status.COMPLETED else None
        return None if course is None else CourseOutput(course).data

    def to_representation(self, job):
        body = super().to_representation(job)
        if job.status != GenerationJob.Status.FAILED:
            del body["error"]
        return body


class JobList(serializers.Serializer):
    jobs = JobOutput(many=True, help_text="Newest first.")
    nextCursor = serializers.CharField(
        allow_null=True, help_text="Pass as `cursor` for the next page; null on the last page."
    )


class ListJobsInput(Input):
    status = StrictChoiceField(choices=GenerationJob.Status.choices, required=False)
    cursor = pagination.CursorField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)


# Courses, their versions and edits ---------------------------------------------------------------

# The course document as the API shows and takes it: courses.content.CourseContent, whose JSON
# schema the API document carries (api/openapi.py).
CONTENT_SCHEMA = {"$ref": "#/components/schemas/CourseContent"}


@extend_schema_field(CONTENT_SCHEMA)
class ContentField(serializers.Field):
    """
    The document of a course (or of one of its versions, with `of="course"`), read-only, with the
    sources deleted since marked as such (`deleted: true`).
    """

    def __init__(self, *, of: str | None = None, **kwargs):
        self.of = of
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, holder):
        course = holder if self.of is None else getattr(holder, self.of)
        return citations.with_deleted_sources(holder.content, course.deleted_source_ids)


class CourseDetailOutput(CourseOutput):
    """The course object plus its version and whole document (`GET /api/v1/courses/{id}`)."""

    version = serializers.IntegerField(min_value=1, help_text="The latest version; also the answer's ETag.")
    content = ContentField(help_text="The course document of that version.")


class VersionOutput(serializers.Serializer):
    version = serializers.IntegerField(source="number", min_value=1)
    createdAt = UtcMillisecondsField(source="created_at")
    source = serializers.ChoiceField(choices=CourseVersion.Source.choices)
    changed = serializers.CharField(help_text='What changed from the version before: "chapter 3", "assessment", … or "content".')


# Made from `{"course": ..., "versions": [...]}` (a comment: the API document shows a docstring).
class VersionListOutput(serializers.Serializer):

    courseId = serializers.CharField(source="course.public_id")
    versions = VersionOutput(many=True, help_text="Newest first.")


class VersionDetailOutput(VersionOutput):
    courseId = serializers.CharField(source="course.public_id")
    content = ContentField(of="course")


class RegenerateInput(Input):
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
# Course settings (PATCH /api/v1/courses/{id}) ---------------------------------------------------


@extend_schema_field(
    {
        "type": "string",  # and null: the field allows it
        "format": "uri",
        "maxLength": urls.MAX_URL_LENGTH,
        "pattern": urls.CALLBACK_URL_PATTERN,
        "description": (
            "Where the events of the course's learners go (learner.started, learner.completed, …), checked as "
            "every callbackUrl is (a host name, or a public IP address in its canonical spelling; public "
            "addresses only); null to send none."
        ),
    }
)
class NullableCallbackUrlField(CallbackUrlField):
    def __init__(self, **kwargs):
        super().__init__(allow_null=True, **kwargs)


class UpdateCourseInput(Input):
    """A course's settings; its document is edited at …/content. Fields left out stay as they are."""

    not_a_field = "Not a setting of the course (its document is edited at …/content)."

    learnerCallbackUrl = NullableCallbackUrlField(source="learner_callback_url", required=False)


class CourseSettingsOutput(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    learnerCallbackUrl = serializers.CharField(source="learner_callback_url", allow_null=True)

    def to_representation(self, course):
        body = super().to_representation(course)
        body["learnerCallbackUrl"] = body["learnerCallbackUrl"] or None  # "" is stored for none
        return body


# --- the quality report (courses.quality) ---------------------------------------------------------


# The values of the report's enums (named in the document by settings.SPECTACULAR_SETTINGS).
QUALITY_PARTS = ("question", "quiz", "objective", "chapter", "lesson", "source")
READABILITY_FORMULAS = tuple(name for name, *_weights in readability.FORMULAS.values())
READABILITY_BANDS = tuple(band for _lowest, band in readability.BANDS)


class QualityFindingOutput(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=list(quality.RULES), help_text="The rule: a stable code (the manual: Quality, the rule list)."
    )
    severity = serializers.ChoiceField(
        choices=list(quality.SEVERITIES),
        help_text="`high`: learners can pass by it; `medium`: a flaw to fix; `low`: worth a look.",
    )
    part = serializers.ChoiceField(choices=QUALITY_PARTS, help_text="What the rule looks at.")
    where = serializers.CharField(
        help_text="A JSON Pointer into the course document: `/assessment/questions/3`, `/assessment`, "
        "`/chapters/0/objectives/1`, `/chapters/2`, `/chapters/0/lessons/1`, `/sources/0`. Positions "
        "count from 0: `/chapters/1/lessons/0` is the page's lesson 2.1."
    )
    partId = serializers.CharField(
        source="part_id",
        allow_null=True,
        help_text="The `id` of the part in the course document: an objective's or a source's. Null for a "
        "chapter, a lesson or a question, which have none, and for the quiz as a whole.",
    )
    partTitle = serializers.CharField(
        source="part_title",
        allow_null=True,
        help_text="The part's title as the course shows it: a chapter's or a lesson's title, a question's "
        "stem (at most 80 characters, shortened with …), an objective's statement, a source's title or "
        "else its name. Null for the quiz as a whole.",
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
        help_text="Ids of the objectives that no question tests: in a course without an assessment, every "
        "objective.",
    )
    readability = LessonReadabilityOutput(many=True)

    def get_courseId(self, report) -> str:
        return self.context["course"].public_id


class QualityInput(Input):
    version = serializers.IntegerField(min_value=1, max_value=1_000_000, required=False)


def quality_output(course: Course, report) -> dict:
    return CourseQualityOutput(report, context={"course": course}).data


# The events of jobs, for the API document (courses.schemas) --------------------------------------


class CourseCreatedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.created"])
    jobId = serializers.CharField()
    course = CourseOutput()


class FailedJobError(serializers.Serializer):
    message = serializers.CharField(help_text="Safe to show to end users.")
    code = serializers.ChoiceField(
        choices=generation_errors.FAILURE_CODES,
        required=False,
        help_text="Present for known failure modes (today, every failure has one).",
    )


class CourseFailedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.failed"])
    jobId = serializers.CharField()
    error = FailedJobError()


class CourseUpdatedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.updated"])
    jobId = serializers.CharField(help_text="The regeneration job.")
    course = CourseOutput()
    version = serializers.IntegerField(min_value=1, help_text="The course's new version.")


class CourseDeletedEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["course.deleted"])
    courseId = serializers.CharField()
    jobId = serializers.CharField(help_text="The job that made the course.")
    deletedAt = serializers.DateTimeField(help_text="ISO 8601, UTC, milliseconds.")
