from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models

from accounts.models import ApiKey
from core import redaction
from core.ids import new_public_id


def new_source_id() -> str:
    return new_public_id("src_")


def new_passage_id() -> str:
    return new_public_id("psg_")


class Source(models.Model):
    """A document a client gave us (an upload, or a page we fetched), and what was read from it."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    public_id = models.CharField(max_length=32, unique=True, default=new_source_id, editable=False)
    api_key = models.ForeignKey(ApiKey, on_delete=models.PROTECT, related_name="sources")
    name = models.CharField(max_length=200)
    url = models.URLField(max_length=2048, blank=True, help_text="The page it was fetched from, for web sources.")
    callback_url = models.URLField(max_length=2048, blank=True)
    file = models.FileField(upload_to="sources/", max_length=300, blank=True)
    media_type = models.CharField(max_length=100, blank=True)
    bytes = models.PositiveBigIntegerField(null=True, blank=True)

    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    error_code = models.CharField(max_length=50, blank=True)
    error_message = models.TextField(blank=True)
    # How many times a worker started reading it (the attempt number, fencing off earlier attempts),
    # how many of those a stopping worker handed back, and the running attempt's worker and heartbeat.
    attempts = models.PositiveSmallIntegerField(default=0)
    handbacks = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    title = models.CharField(max_length=300, blank=True)
    pages = models.PositiveIntegerField(null=True, blank=True)
    # [{"title", "level", "page"}] in document order.
    outline = models.JSONField(default=list, blank=True)
    # The parts read as matter, not body (sources/extraction/matter.py): [{"kind", "title", "page",
    # "pageEnd"}] in document order.
    matter = models.JSONField(default=list, blank=True)
    # ISO 639-1 code of the language the text is in, when told apart; and the PostgreSQL text search
    # configuration its passages are indexed with ("simple" when the language is not known).
    language = models.CharField(max_length=8, blank=True)
    search_config = models.CharField(max_length=40, default="simple")
    # The whole text as read; passages are exact spans of it.
    text = models.TextField(blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    enqueued_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["api_key", "-created_at", "-id"], name="source_list_per_key")]

    def __str__(self):
        # Shown by the admin: a web source given no name is named by its URL, which may carry a token.
        return f"{self.public_id} {redaction.redacted_text(self.name)}"


class Passage(models.Model):
    """A few hundred words of a source under one heading: what courses retrieve and cite."""

    public_id = models.CharField(max_length=32, unique=True, default=new_passage_id, editable=False)
    source = models.ForeignKey(Source, on_delete=models.CASCADE, related_name="passages")
    ordinal = models.PositiveIntegerField(help_text="Position in the source, from 0.")
    heading_path = models.JSONField(default=list, help_text="Headings above the passage, outermost first.")
    page = models.PositiveIntegerField(null=True, blank=True, help_text="First page or slide (from 1).")
    page_end = models.PositiveIntegerField(null=True, blank=True, help_text="Last page or slide.")
    page_breaks = models.JSONField(
        default=list, blank=True, help_text="[offset in the passage, page] where each later page starts."
    )
    char_start = models.PositiveIntegerField(help_text="Offset of the passage in the source's text.")
    char_end = models.PositiveIntegerField()
    text = models.TextField()
    words = models.PositiveIntegerField()
    # The kind of matter it is ("licence", "index", …: sources/extraction/matter.py), "" for the body:
    # a course is made of the body alone.
    matter = models.CharField(max_length=20, blank=True, default="")
    # Headings (weight A) and text (weight B), in the source's text search configuration.
    search_vector = SearchVectorField(null=True)
    # By meaning (sources/embeddings.py): a unit float32 vector, and the model that made it.
    embedding = models.BinaryField(null=True, editable=False)
    embedding_model = models.CharField(max_length=200, blank=True, editable=False)

    class Meta:
        ordering = ["source", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["source", "ordinal"], name="passage_ordinal_unique"),
        ]
        indexes = [GinIndex(fields=["search_vector"], name="passage_search")]

    def __str__(self):
        return self.public_id
