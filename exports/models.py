from django.conf import settings
from django.db import models
from django.utils import timezone

from accounts.models import ApiKey
from core.ids import masked, new_public_id
from courses.models import Course


def new_export_id() -> str:
    return new_public_id("exp_")


class Export(models.Model):
    class ExportFormat(models.TextChoices):
        SCORM12 = "scorm12", "SCORM 1.2"
        SCORM2004 = "scorm2004", "SCORM 2004 3rd edition"
        SCORM2004_4 = "scorm2004_4", "SCORM 2004 4th edition"
        CMI5 = "cmi5", "cmi5 (xAPI)"

    public_id = models.CharField(max_length=32, unique=True, default=new_export_id, editable=False)
    # Deleted with its course (courses.deletion removes the file and remembers the link as gone).
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="exports")
    api_key = models.ForeignKey(ApiKey, on_delete=models.PROTECT, related_name="exports")
    format = models.CharField(max_length=12, choices=ExportFormat.choices)
    # The version of the course the package holds; the file keeps it whatever comes after.
    version = models.PositiveIntegerField(default=1)
    file = models.FileField(upload_to="exports/", max_length=300)
    callback_url = models.URLField(max_length=2048, blank=True)
    # Set by exports.export_course: whole milliseconds, later than the course's previous export.
    exported_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-exported_at"]
        constraints = [
            # Receivers deduplicate course.exported on courseId + exportedAt (interface 6.1.2).
            models.UniqueConstraint(fields=["course", "exported_at"], name="export_unique_time_per_course"),
        ]

    def __str__(self):
        # The whole id is the download link's secret: the admin shows this wherever it lists exports
        # (a course's delete confirmation too) and records it in its log of changes.
        return masked(self.public_id)

    @property
    def download_url(self) -> str:
        return f"{settings.PUBLIC_BASE_URL}/downloads/{self.public_id}"
