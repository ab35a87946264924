from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.response import Response

from core import errors

from api import openapi
from api.views import ApiView
from api.parsers import StrictJSONParser, StrictMultiPartParser
from sources import queries, serializers, services

_ID = openapi.id_in_path("source_id", prefix="src_", description="The source `id`.")


class SourcesView(ApiView):
    """POST: a new source (upload or URL). GET: the key's sources."""

    parser_classes = [StrictMultiPartParser, StrictJSONParser]
    # Reading counts with the job polls; writing (and anything else) has its own limit.
    rate_limit_scope = "sources"
    rate_limit_scopes = {"GET": "poll"}

    @extend_schema(
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
    def post(self, request):
        if _is_multipart(request):
            data = serializers.UploadSourceInput(data=_body(request))
            data.is_valid(raise_exception=True)
            fields = data.validated_data
            source = services.create_source_from_upload(
                api_key=request.auth,
                upload=fields["file"],
                name=fields.get("name", ""),
                callback_url=fields.get("callback_url", ""),
            )
        else:
            data = serializers.UrlSourceInput(data=_body(request))
            data.is_valid(raise_exception=True)
            source = services.create_source_from_url(api_key=request.auth, **data.validated_data)
        body = serializers.source_output(source)
        return Response(body, status=202, headers={"Location": f"/api/v1/sources/{source.public_id}"})

    @extend_schema(
        operation_id="listSources",
        summary="List the key's sources",
        description="Newest first, `limit` at a time; follow `nextCursor` for the next page.",
        parameters=[
            OpenApiParameter(
                "cursor",
                {"type": "string", "pattern": serializers.CURSOR_PATTERN},
                OpenApiParameter.QUERY,
                description="`nextCursor` of the previous page.",
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                OpenApiParameter.QUERY,
                description="Sources per page, 1 to 100.",
            ),
        ],
        responses=openapi.responses(
            {200: OpenApiResponse(serializers.SourceList, description="A page of sources, newest first.")},
            e400=[openapi.VALIDATION],
        ),
    )
    def get(self, request):
        # A plain dict: an empty value is then refused, not taken for an absent one.
        data = serializers.ListSourcesInput(data=request.query_params.dict())
        data.is_valid(raise_exception=True)
        page = queries.sources_of(api_key=request.auth, **data.validated_data)
        return Response(
            {
                "sources": [serializers.source_output(source) for source in page.sources],
                "nextCursor": page.next_cursor,
            }
        )


class SourceView(ApiView):
    """GET: poll a source. DELETE: delete it."""

    rate_limit_scope = "sources"
    rate_limit_scopes = {"GET": "poll"}

    @extend_schema(
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
    def get(self, request, source_id: str):
        source = queries.source_visible_to(api_key=request.auth, public_id=source_id)
        if source is None:
            raise services.SourceNotFound()
        headers = {"Retry-After": "5"} if source.status == source.Status.PENDING else {}
        return Response(serializers.source_output(source), headers=headers)

    @extend_schema(
        operation_id="deleteSource",
        summary="Delete a source",
        description="Its file, text and passages are deleted at once. Courses made from it keep their text.",
        parameters=[_ID],
        responses=openapi.responses({204: OpenApiResponse(description="Deleted.")}, e404=[openapi.NOT_FOUND]),
    )
    def delete(self, request, source_id: str):
        services.delete_source(api_key=request.auth, public_id=source_id)
        return Response(status=204)


def _is_multipart(request) -> bool:
    return (request.content_type or "").lower().startswith("multipart/form-data")


def _body(request):
    try:
        return request.data
    except UnsupportedMediaType:
        raise errors.ValidationError(
            "The body must be multipart/form-data (to upload a file) or application/json (with a url)."
        ) from None
