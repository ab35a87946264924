"""
What the API document says of the sources' endpoints (drf-spectacular): each view names its operation here
(`@schemas.create_source`), so that the views read as code; and their events.
"""

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema

from api import openapi
from sources import serializers
from sources.extraction import sniff

_ID = openapi.id_in_path("source_id", prefix="src_", description="The source `id`.")
# What the `file` part of an upload may be: the kinds of document read (told from the content).
UPLOAD_CONTENT_TYPES = ", ".join(sniff.MEDIA_TYPES)

create_source = extend_schema(
    operation_id="createSource",
    summary="Upload a document, or give the URL of one",
    description=(
        "Multipart (`file`, optional `name`, `callbackUrl`) to upload a PDF, DOCX, PPTX, HTML, Markdown or "
        "plain-text file, told apart by its content (at most `SOURCE_MAX_BYTES`, 25 MiB by default); or "
        "JSON with the `url` of a page or file to fetch. Answers at once with the source, `pending`; it is "
        "read in the background: poll it, or give a `callbackUrl` for `source.ready` or `source.failed`."
    ),
    request={
        "multipart/form-data": serializers.UploadSourceInput,
        "application/json": serializers.UrlSourceInput,
    },
    examples=[
        OpenApiExample(
            "A web page",
            value={"url": "https://docs.example.com/handbook/expenses", "name": "Expense policy"},
            request_only=True,
            media_type="application/json",
        ),
    ],
    responses=openapi.responses(
        {
            202: OpenApiResponse(
                serializers.SourceOutput, description="Accepted; `Location` is the source's URL to poll."
            )
        },
        e400=[
            openapi.VALIDATION,
            ("UNSUPPORTED_MEDIA_TYPE", "The file is not a PDF, DOCX, PPTX, HTML, Markdown or text document."),
        ],
        e403=[("STORAGE_LIMIT_EXCEEDED", "The plan's storage for sources is full; names the plan.")],
        e413=[("PAYLOAD_TOO_LARGE", "The file is larger than `SOURCE_MAX_BYTES`, or a JSON body over 1 MiB.")],
    ),
)


list_sources = extend_schema(
    operation_id="listSources",
    summary="List the key's sources",
    description="Newest first, `limit` at a time; follow `nextCursor` for the next page.",
    parameters=openapi.page_parameters("Sources"),
    responses=openapi.responses(
        {200: OpenApiResponse(serializers.SourceList, description="A page of sources, newest first.")},
        e400=[openapi.VALIDATION],
    ),
)


get_source = extend_schema(
    operation_id="getSource",
    summary="Poll a source",
    description="Unread sources (`pending`) answer with `Retry-After: 5`.",
    parameters=[_ID],
    responses=openapi.responses(
        {
            200: OpenApiResponse(
                serializers.SourceOutput, description="The source; while `pending`, with `Retry-After: 5`."
            )
        },
        e404=[openapi.NOT_FOUND],
    ),
)


delete_source = extend_schema(
    operation_id="deleteSource",
    summary="Delete a source",
    description=(
        "Its file, text and passages are deleted at once. Courses made from it keep their text. Refused "
        "while a job that builds from it (a new course, or a part generated again) is pending or running."
    ),
    parameters=[_ID],
    responses=openapi.responses(
        {204: OpenApiResponse(description="Deleted.")},
        e404=[openapi.NOT_FOUND],
        e409=[("SOURCE_IN_USE", "A job that builds from it is pending or running (named); delete once it has ended.")],
    ),
)


SOURCE_READY = openapi.webhook(
    "source.ready",
    "notifySourceReady",
    serializers.SourceEvent,
    "A source was read: `source.status` is `ready`. Deduplicate on `source.id` and `event`." + openapi.DELIVERY,
)
SOURCE_FAILED = openapi.webhook(
    "source.failed",
    "notifySourceFailed",
    serializers.SourceEvent,
    "A source could not be read: `source.status` is `failed`, with `source.error`. Deduplicate on "
    "`source.id` and `event`." + openapi.DELIVERY,
)


_ANSWER_HEADERS = {
    ("/api/v1/sources", "post", "202"): {
        "Location": {"schema": {"type": "string"}, "description": "The source's path, to poll."},
    },
    ("/api/v1/sources/{source_id}", "get", "200"): {
        "Retry-After": {
            "schema": {"type": "integer"},
            "description": "`5` while the source is pending: poll at most once every 5 seconds.",
        },
    },
}
_LINKS = {
    ("/api/v1/sources", "post", "202"): {
        "CreateCourseFromSource": {
            "operationId": "createCourse",
            "requestBody": {"subject": "A course from this document", "sources": ["$response.body#/id"]},
            "description": "Build a course from the source just accepted, once it is `ready`.",
        },
        "GetSource": {
            "operationId": "getSource",
            "parameters": {"source_id": "$response.body#/id"},
            "description": "Poll the source that was just accepted.",
        },
        "DeleteSource": {
            "operationId": "deleteSource",
            "parameters": {"source_id": "$response.body#/id"},
            "description": "Delete the source that was just accepted.",
        },
    },
}


def postprocess(result, generator, request, public):
    """drf-spectacular hook: the sources' answer headers and links, and what an upload's file may be."""
    openapi.add_to_answers(result, headers=_ANSWER_HEADERS, links=_LINKS)
    upload = result.get("paths", {}).get("/api/v1/sources", {}).get("post", {}).get("requestBody", {})
    multipart = upload.get("content", {}).get("multipart/form-data")
    if multipart is not None:
        multipart["encoding"] = {"file": {"contentType": UPLOAD_CONTENT_TYPES}}
    return result
