"""
What the API document says of the exports' endpoints (drf-spectacular): each view names its operation here
(`@schemas.export_course`), so that the views read as code; and the course.exported event and the download link, which no DRF view serves.
"""

import copy

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from api import openapi
from exports import serializers

export_course = extend_schema(
    operation_id="exportCourse",
    summary="Export a course as a SCORM or cmi5 package",
    description=(
        "Synchronous; with a `callbackUrl`, a `course.exported` event follows. Exports are free. "
        "`scorm12` (the default), `scorm2004` and `scorm2004_4` make SCORM packages; `cmi5` makes a "
        "cmi5 package (xAPI) for LMSs that speak cmi5."
    ),
    parameters=[
        openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
        openapi.IDEMPOTENCY_KEY,
    ],
    request=serializers.ExportCourseInput,
    examples=[
        OpenApiExample("SCORM 1.2", value={"format": "scorm12"}, request_only=True),
        OpenApiExample("cmi5", value={"format": "cmi5"}, request_only=True),
        OpenApiExample(
            "SCORM 2004 with an event",
            value={"format": "scorm2004_4", "callbackUrl": "https://hooks.example.com/exports/7f3a9c2e"},
            request_only=True,
        ),
    ],
    responses=openapi.responses(
        {
            200: OpenApiResponse(
                serializers.ExportOutput,
                description="The export record; its `downloadUrl` serves the package from now on.",
            )
        },
        e400=[openapi.VALIDATION],
        e404=[openapi.NOT_FOUND],
        e409=[openapi.IDEMPOTENCY_REUSED],
        e413=[openapi.TOO_LARGE],
    ),
)


revoke_export = extend_schema(
    operation_id="revokeExport",
    summary="Revoke an export's download link",
    description=(
        "Deletes the export and its file: its `downloadUrl` answers `410 Gone` from then on. The course "
        "and its other exports stay as they are; export again for a new link."
    ),
    parameters=[
        openapi.id_in_path("course_id", prefix="cou_", description="The course `id`."),
        openapi.id_in_path(
            "export_id", prefix="exp_", description="The export's id: the last part of its `downloadUrl`."
        ),
    ],
    responses=openapi.responses(
        {204: OpenApiResponse(description="Revoked.")},
        e404=[("NOT_FOUND", "Unknown course or export, or the course belongs to a different key.")],
    ),
)


COURSE_EXPORTED = openapi.webhook(
    "course.exported",
    "notifyCourseExported",
    serializers.CourseExportedEvent,
    "An export finished and a `callbackUrl` was given. Deduplicate on `courseId` + `exportedAt`." + openapi.DELIVERY,
)


# The link of an export (`downloadUrl`): a plain Django view outside the API, so described here. It
# needs no key and answers no JSON: a zip, the site's 404 page, or a page saying it was revoked (410).
DOWNLOAD_PATH = "/downloads/{export_id}"
# The zip is labelled as the client's Accept prefers, application/zip unless it asks for
# application/octet-stream only: some client generators read no other binary type as bytes.
DOWNLOAD_MEDIA_TYPES = ["application/zip", "application/octet-stream"]
_PACKAGE = {"schema": {"type": "string", "format": "binary"}}
_DOWNLOAD = {
    "get": {
        "operationId": "downloadExport",
        "summary": "Download an exported package",
        "description": (
            "The `downloadUrl` of an export record: GET it as it is. No API key is needed, and none is "
            "looked at: the unguessable export id is the secret, so share the link only with whom may "
            "have the course. Until it is revoked (`revokeExport`) or its course deleted, the link always "
            "serves the same zip (a SCORM package, or a cmi5 package for `cmi5`), so a client may keep "
            "it. Not rate-limited. `HEAD` answers the same headers without the body. The zip is sent as "
            "`application/zip`, or as `application/octet-stream` to a client whose `Accept` names only that."
        ),
        "tags": ["downloads"],
        "security": [],
        "parameters": [
            {
                "name": "export_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string", "pattern": "^exp_[A-Za-z0-9]{22}$"},
                "description": "The export's id: the last segment of its `downloadUrl`.",
            }
        ],
        "responses": {
            "200": {
                "description": "The package, a zip archive.",
                "headers": {
                    "Content-Disposition": {
                        "schema": {"type": "string"},
                        "description": (
                            "`attachment` with the file name `<course name>-<format>.zip`: ASCII in "
                            "`filename`, the real name in `filename*` (RFC 6266)."
                        ),
                    },
                    "Cache-Control": {
                        "schema": {"type": "string"},
                        "description": "`private, max-age=86400, immutable`: the content never changes.",
                    },
                },
                "content": {media_type: _PACKAGE for media_type in DOWNLOAD_MEDIA_TYPES},
            },
            "404": {
                "description": "No export has this id: the site's HTML 404 page.",
                "content": {"text/html": {"schema": {"type": "string"}}},
            },
            "410": {
                "description": (
                    "The export was revoked or its course deleted: an HTML page saying so, in the course's "
                    "language."
                ),
                "content": {"text/html": {"schema": {"type": "string"}}},
            },
        },
    }
}


def postprocess(result, generator, request, public):
    """drf-spectacular hook: the download link."""
    result.setdefault("paths", {})[DOWNLOAD_PATH] = copy.deepcopy(_DOWNLOAD)
    return result
