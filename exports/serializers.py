from rest_framework import serializers

from api.fields import CallbackUrlField, StrictChoiceField, UtcMillisecondsField
from api.inputs import Input
from exports.models import Export


class ExportCourseInput(Input):
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


class CourseExportedEvent(ExportOutput):
    event = serializers.ChoiceField(choices=["course.exported"])
