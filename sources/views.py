from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.response import Response

from api import openapi
from api.parsers import StrictJSONParser, StrictMultiPartParser
from api.views import ApiView
from core import errors
from sources import queries, schemas, serializers, services

_ID = openapi.id_in_path("source_id", prefix="src_", description="The source `id`.")


class SourcesView(ApiView):
    """POST: a new source (upload or URL). GET: the key's sources."""

    parser_classes = [StrictMultiPartParser, StrictJSONParser]
    # Reading counts with the job polls; writing (and anything else) has its own limit.
    rate_limit_scope = "sources"
    rate_limit_scopes = {"GET": "poll"}

    @schemas.create_source
    def post(self, request):
        if _is_multipart(request):
            # A plain dict, as for the list's query: an empty field is refused, not taken for an absent one.
            data = serializers.UploadSourceInput(data=_body(request).dict())
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

    @schemas.list_sources
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

    @schemas.get_source
    def get(self, request, source_id: str):
        source = queries.source_visible_to(api_key=request.auth, public_id=source_id)
        if source is None:
            raise services.SourceNotFound()
        headers = {"Retry-After": "5"} if source.status == source.Status.PENDING else {}
        return Response(serializers.source_output(source), headers=headers)

    @schemas.delete_source
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
