"""
Learners of a course and what the preview page records of them: one row per learner and course
(their result, kept up to date by every write), one row per quiz attempt, and one per sign-off of
the course's agreement.
"""

from django.db import models
from django.utils import timezone

from core.ids import new_public_id
from courses.models import Course


def new_learner_id() -> str:
    return new_public_id("lrn_")


def new_signoff_id() -> str:
    return new_public_id("sig_")


class Learner(models.Model):
    """
    One person taking one course: anonymous (known by a cookie) or named by the client (a personal
    link, with `external_id`). The row is their result; the preview page updates it in one write.
    """

    public_id = models.CharField(max_length=32, unique=True, default=new_learner_id, editable=False)
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="learners")
    # The client's own id of the person (personal links only) and the name it gave.
    external_id = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001 - NULLs never collide
    name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # Any change of the row (created, renamed, any activity): the `since` filter and data retention.
    updated_at = models.DateTimeField(default=timezone.now)

    started_at = models.DateTimeField(null=True, blank=True)  # the first page view
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # The version of the course the learner took: the latest their pages showed.
    version = models.PositiveIntegerField(null=True, blank=True)
    pages = models.PositiveSmallIntegerField(default=0, help_text="Pages of the course (see learners.pages).")
    pages_seen = models.BigIntegerField(default=0, help_text="Bit n set: page n was seen.")
    current_page = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Where to resume.")
    seconds_spent = models.PositiveIntegerField(default=0)
    # The moment up to which time spent has been counted: a batch is counted no further than now, and
    # from no earlier than a batch's most before it (learners.progress), so no tabs or scripts add
    # more time than passed.
    time_counted_until = models.DateTimeField(null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    attempt_count = models.PositiveIntegerField(default=0)
    best_score = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Percent.")
    passed = models.BooleanField(null=True, blank=True, help_text="Null until a first quiz attempt.")
    signed_at = models.DateTimeField(null=True, blank=True)
    signed_name = models.CharField(max_length=200, blank=True)

    # The row is the outbox of its own events: a write that makes a fact (started, an attempt,
    # completed, signed) sets `events_pending`, and learners.events turns the facts not yet told
    # (`notified`, `attempts_notified`) into webhook events.
    events_pending = models.BooleanField(default=False)
    # When beat's sweep last sent the learner's task again (learners.events.enqueue_pending): under
    # a backlog it does so at most once a wait, not at every sweep.
    events_requeued_at = models.DateTimeField(null=True, blank=True)
    notified = models.PositiveSmallIntegerField(default=0, help_text="Bits: 1 started, 2 completed, 4 signed.")
    attempts_notified = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["course", "external_id"], name="learner_external_id_per_course"),
        ]
        indexes = [
            models.Index(fields=["course", "-created_at", "-id"], name="learner_course_newest"),
            models.Index(fields=["updated_at"], name="learner_updated"),
            models.Index(fields=["updated_at"], name="learner_events_pending", condition=models.Q(events_pending=True)),
        ]

    def __str__(self):
        return self.external_id or self.public_id

    @property
    def progress_percent(self) -> int:
        if not self.pages:
            return 0
        seen = bin(self.pages_seen & ((1 << self.pages) - 1)).count("1")
        return seen * 100 // self.pages

    @property
    def pages_seen_count(self) -> int:
        return bin(self.pages_seen & ((1 << self.pages) - 1)).count("1") if self.pages else 0


class QuizAttempt(models.Model):
    """One submission of the course's assessment, scored by the service against the version shown."""

    learner = models.ForeignKey(Learner, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveIntegerField()  # 1, 2, … per learner
    version = models.PositiveIntegerField()
    # The option chosen for each question (its position from 0), null for a question left unanswered.
    answers = models.JSONField()
    correct = models.PositiveSmallIntegerField()
    questions = models.PositiveSmallIntegerField()
    score = models.PositiveSmallIntegerField(help_text="Percent of the questions answered right.")
    passed = models.BooleanField()
    created_at = models.DateTimeField(default=timezone.now)
    # The page's own id of the attempt: one it sends again (the answer lost on the way, though it was
    # recorded) is recorded once. None from pages made before attempts had ids.
    key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 - NULLs never collide

    class Meta:
        ordering = ["learner", "number"]
        constraints = [
            models.UniqueConstraint(fields=["learner", "number"], name="quiz_attempt_number_per_learner"),
            models.UniqueConstraint(fields=["learner", "key"], name="quiz_attempt_key_per_learner"),
        ]

    def __str__(self):
        return f"{self.learner} attempt {self.number}"


class Signoff(models.Model):
    """A learner's confirmation of a course's agreement add-on, on the preview page."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="signoffs")
    # In the confirmation page's address: opaque, so it tells nothing about other sign-offs.
    public_id = models.CharField(max_length=32, unique=True, default=new_signoff_id, editable=False)
    # The learner who signed, whom the browser's learner cookie names, once they had done the rest of
    # the course (learners.completion): a sign-off is in their result, and goes with their erasure,
    # retention and the course's deletion. Those recorded before a sign-off needed its learner were
    # each given one of their own (migration 0006).
    learner = models.ForeignKey(Learner, on_delete=models.CASCADE, related_name="signoffs")
    name = models.CharField(max_length=200)
    # SHA-256 of the client IP with the secret key: enough to spot abuse, not to identify anyone.
    ip_hash = models.CharField(max_length=64)
    signed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-signed_at"]
        indexes = [models.Index(fields=["signed_at"], name="signoff_signed_at")]

    def __str__(self):
        return f"{self.name} — {self.course}"
