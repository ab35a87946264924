from django.conf import settings
from django.db import models
from django.db.models.fields.json import KeyTransform

from accounts.models import ApiKey
from core.ids import new_public_id
from core.languages import Language
from courses import content


class DocumentField(models.JSONField):
    """
    A course document (courses.content), read in the current schema version whatever version it
    was stored in (content.upgraded): the previous release's processes may still write the version
    before while a deploy runs. A key read on its own (`content__assessment`) is read as stored.
    """

    def from_db_value(self, value, expression, connection):
        value = super().from_db_value(value, expression, connection)
        if isinstance(value, dict) and not isinstance(expression, KeyTransform):
            return content.upgraded(value)
        return value


def new_job_id() -> str:
    return new_public_id("job_")


def new_course_id() -> str:
    return new_public_id("cou_")


class Format(models.TextChoices):
    ONEPAGE = "onepage", "One page"
    CLASSIC = "classic", "Classic"


class AddOn(models.TextChoices):
    PRACTICAL_EXERCISES = "practical-exercises", "Practical exercises"
    WRAPUP = "wrapup", "Wrap-up"
    ASSESSMENT = "assessment", "Assessment"
    ARTICLES = "articles", "Articles"
    VIDEOS = "videos", "Videos"
    AGREEMENT = "agreement", "Agreement"


class Part(models.TextChoices):
    """The parts of a course that can be generated again on their own."""

    CHAPTER = "chapter", "Chapter"
    INTRODUCTION = "introduction", "Introduction"
    WRAPUP = "wrapup", "Wrap-up"
    ASSESSMENT = "assessment", "Assessment"
    AGREEMENT = "agreement", "Agreement"


class GenerationJob(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"

    public_id = models.CharField(max_length=32, unique=True, default=new_job_id, editable=False)
    api_key = models.ForeignKey(ApiKey, on_delete=models.PROTECT, related_name="jobs")
    subject = models.CharField(max_length=200)
    format = models.CharField(max_length=10, choices=Format.choices, default=Format.ONEPAGE)
    language_id = models.CharField(max_length=5, choices=Language.choices, default=Language.EN_US)
    outline = models.JSONField(default=list, blank=True)
    add_ons = models.JSONField(default=list, blank=True)
    callback_url = models.URLField(max_length=2048, blank=True)
    # Given to the course it makes: where its learners' events go (learner.started, …).
    learner_callback_url = models.URLField(max_length=2048, blank=True)
    # A regeneration of one part of an existing course (POST .../regenerate), instead of a new course.
    # A deleted course leaves its regenerations' jobs (null here), as it leaves the job that made it.
    regenerated_course = models.ForeignKey(
        "Course", on_delete=models.SET_NULL, null=True, blank=True, related_name="regenerations"
    )
    # The client's documents the course is built from, in the order given (JobSource). A deleted
    # source leaves the list, so whether the job was asked to build from sources is kept apart: one
    # whose sources are all gone fails rather than building from the subject alone.
    sources = models.ManyToManyField(
        "sources.Source", through="JobSource", related_name="jobs", blank=True
    )
    from_sources = models.BooleanField(default=False)
    part = models.CharField(max_length=20, choices=Part.choices, blank=True)
    chapter = models.PositiveSmallIntegerField(null=True, blank=True)  # 1-based, with part "chapter"
    instructions = models.TextField(blank=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    progress = models.PositiveSmallIntegerField(default=0)
    error_code = models.CharField(max_length=50, blank=True)
    error_message = models.TextField(blank=True)
    # How many times a worker has started this job: the attempt number, which fences off the writes
    # of any earlier attempt. A job whose workers died on it too often is failed (courses.jobs).
    attempts = models.PositiveSmallIntegerField(default=0)
    # Attempts given back by a worker told to stop (a deploy): they do not count as deaths.
    handbacks = models.PositiveSmallIntegerField(default=0)
    # The running attempt's worker (its node name and start, core.leases.worker_name), and
    # when it last showed it was alive; none while nobody holds the job (a handed-back job is free
    # to take at once).
    worker = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # The billing period whose credit this job consumed, so a refund goes back to the right month.
    charged_period_date = models.DateField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="job_status_created"),
            models.Index(fields=["api_key", "-created_at", "-id"], name="job_list_per_key"),
        ]

    def __str__(self):
        return self.public_id

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.COMPLETED, self.Status.FAILED)

    @property
    def is_regeneration(self) -> bool:
        return bool(self.part)  # every regeneration names its part; a new course has none

    @property
    def result(self) -> "Course | None":
        """The course the job made, or the one it generated a part of again; None once deleted."""
        if self.is_regeneration:
            return self.regenerated_course
        try:
            return self.course
        except Course.DoesNotExist:
            return None

    @property
    def reported_progress(self) -> int:
        """Progress as clients see it: 0 while pending and in a failed answer, 100 once completed."""
        fixed = {self.Status.PENDING: 0, self.Status.COMPLETED: 100, self.Status.FAILED: 0}
        return fixed.get(self.status, self.progress)


class Course(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_course_id, editable=False)
    # One course per job at most (unique): a job retried after a worker died cannot make a second.
    job = models.OneToOneField(GenerationJob, on_delete=models.PROTECT, related_name="course")
    api_key = models.ForeignKey(ApiKey, on_delete=models.PROTECT, related_name="courses")
    name = models.CharField(max_length=content.NAME_MAX)
    headline = models.CharField(max_length=content.TEXT_MAX)
    format = models.CharField(max_length=10, choices=Format.choices)
    language_id = models.CharField(max_length=5, choices=Language.choices)
    # The whole course as one JSON document, validated by courses.content.CourseContent.
    content = DocumentField()
    # content.digest(content), kept with it: pages know whether the content changed without reading it.
    content_digest = models.CharField(max_length=64)
    schema_version = models.PositiveSmallIntegerField()
    # The number of the latest version (CourseVersion), whose document `content` is.
    version = models.PositiveIntegerField(default=1)
    # Public ids of the sources of the course's document that have been deleted since: what every
    # reading of the course marks as deleted. Ids are only ever added.
    deleted_source_ids = models.JSONField(default=list, blank=True)
    # Where the events of its learners go (learner.started, learner.completed, …); empty: none sent.
    learner_callback_url = models.URLField(max_length=2048, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["api_key", "-created_at", "-id"], name="course_list_per_key")]

    def __str__(self):
        return f"{self.public_id} {self.name}"

    @property
    def share_url(self) -> str:
        return f"{settings.PUBLIC_BASE_URL}/go/{self.public_id}"


class JobSource(models.Model):
    """A source a job builds its course (or a part of it) from, and its place in the request."""

    job = models.ForeignKey(GenerationJob, on_delete=models.CASCADE, related_name="job_sources")
    # A deleted source leaves its jobs: the course keeps its text and citations (Course.deleted_source_ids).
    source = models.ForeignKey("sources.Source", on_delete=models.CASCADE, related_name="job_sources")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["job", "position"]
        constraints = [
            models.UniqueConstraint(fields=["job", "source"], name="job_source_unique"),
        ]


class CourseVersion(models.Model):
    """One version of a course's document: as generated, edited, or with a part generated again."""

    class Source(models.TextChoices):
        GENERATED = "generated", "Generated"
        EDITED = "edited", "Edited"
        REGENERATED = "regenerated", "Regenerated"

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    content = DocumentField()
    source = models.CharField(max_length=12, choices=Source.choices)
    # What changed from the version before: a part ("chapter 3", "assessment") or "content".
    changed = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["course", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["course", "number"], name="course_version_number_unique"),
        ]

    def __str__(self):
        return f"{self.course.public_id} v{self.number}"


class IdempotencyRecord(models.Model):
    """
    What the first request sent with an `Idempotency-Key` made (a job, or an export), kept for 24
    hours so a retry gets the same answer. Whatever app made it keeps it by its public id.
    """

    api_key = models.ForeignKey(ApiKey, on_delete=models.CASCADE, related_name="idempotency_records")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    # The public id of what it made: a job (`job_…`) or an export (`exp_…`).
    made = models.CharField(max_length=32)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["api_key", "key"], name="idempotency_key_per_api_key")]


class RemovedLink(models.Model):
    """
    A course or an export that was deleted: its public link (`/go/<id>`, `/downloads/<id>`) answers
    410 Gone from then on, rather than 404. Ids are never reused. Nothing of the course is kept but
    its language, so the page that says it is gone speaks to its learners in their language.
    """

    public_id = models.CharField(max_length=32, unique=True)
    language_id = models.CharField(max_length=5, choices=Language.choices, default=Language.EN_US)
    removed_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.public_id


class GenerationCheckpoint(models.Model):
    """One finished step of a running generation (courses.checkpoints); gone when the job ends."""

    job = models.ForeignKey(GenerationJob, on_delete=models.CASCADE, related_name="checkpoints")
    # "plan", "chapter:0", "wrapup", "assessment", "agreement", "part" (a regeneration's part).
    step = models.CharField(max_length=40)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "step"], name="checkpoint_step_per_job")]
