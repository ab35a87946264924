import logging
import re
import unicodedata
import urllib.parse

from django.http import FileResponse, Http404, HttpResponseRedirect
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from rest_framework.response import Response

from api.views import ApiView
from core import error_pages, errors, files, ids
from core.ids import looks_like_public_id
from courses import deletion, idempotency
from exports import queries, schemas, serializers, services

logger = logging.getLogger(__name__)


class ExportCourseView(ApiView):
    rate_limit_scope = "export"

    @schemas.export_course
    def post(self, request, course_id: str):
        data = serializers.ExportCourseInput(data=request.data)
        data.is_valid(raise_exception=True)
        export = services.export_course(
            api_key=request.auth,
            course_public_id=course_id,
            idempotency_key=idempotency.key_of(request),
            **data.validated_data,
        )
        return Response(serializers.ExportOutput(export).data)


class RevokeExportView(ApiView):
    rate_limit_scope = "edit"

    @schemas.revoke_export
    def delete(self, request, course_id: str, export_id: str):
        services.revoke_export(api_key=request.auth, course_public_id=course_id, export_public_id=export_id)
        return Response(status=204)


# No cookie or form is involved, so no CSRF check: any method but GET and HEAD is a 405, as the API
# document says, rather than the CSRF failure page.
@csrf_exempt
@require_safe
def download_export(request, export_id: str):
    """The export's zip: public, the unguessable export id in the path is the key."""
    export = None
    if looks_like_public_id(export_id, "exp_"):
        export = queries.export_to_download(public_id=export_id)
    if export is None:
        removed = deletion.is_removed(export_id) if looks_like_public_id(export_id, "exp_") else None
        if removed is not None:
            return error_pages.gone_page(
                request,
                language_id=removed.language_id,
                title=_("This download is no longer available"),
                text=_("Whoever shared the link has revoked it. If you still need the course, ask them for a new link."),
            )
        raise Http404("No such export.")
    media_type = request.get_preferred_type(schemas.DOWNLOAD_MEDIA_TYPES) or "application/zip"
    disposition = attachment_disposition(name=export.packaged_name or export.course.name, suffix=export.format)
    # With an object store, the store sends the package: no web worker is held streaming it. The
    # link is valid for minutes, so the redirect itself is never kept by a cache.
    try:
        stored_at = files.download_url(
            export.file, filename=disposition, media_type=media_type, method=request.method
        )
        if stored_at is not None:
            response = HttpResponseRedirect(stored_at)
            response["Cache-Control"] = "private, no-store"
            response["X-Robots-Tag"] = "noindex"
            return response
        with files.reaching_store("read an export"):
            package = export.file.open("rb")
    except FileNotFoundError:
        logger.error("export file missing", extra={"export_id": ids.masked(export.public_id)})
        raise Http404("No such export.") from None
    except files.StoreUnavailable:
        response = error_pages.page(request, 503)
        response["Retry-After"] = str(errors.RETRY_AFTER_SECONDS)
        return response
    response = FileResponse(package, content_type=media_type)
    response["Content-Disposition"] = disposition
    # The content behind an export id never changes; the id is a secret, so no shared caches.
    response["Cache-Control"] = "private, max-age=86400, immutable"
    response["X-Robots-Tag"] = "noindex"
    return response


_UNSAFE_IN_FILENAME = re.compile(r'[\x00-\x1f\x7f-\x9f"\\/:*?<>|]+')


def attachment_disposition(*, name: str, suffix: str) -> str:
    """
    `attachment` for `<name>-<suffix>.zip`: an ASCII-safe `filename` (slugified) for old clients,
    and the real name as RFC 6266 / RFC 5987 `filename*` (UTF-8, percent-encoded) without the
    characters file systems refuse, and without invisible formatting characters: a right-to-left
    override would let `Invoice<RLO>piz.exe` show as `Invoiceexe.zip`.
    """
    ascii_stem = slugify(name)[:100].strip("-") or "course"
    visible = "".join(char for char in name if unicodedata.category(char) != "Cf")
    readable = " ".join(_UNSAFE_IN_FILENAME.sub(" ", visible).split())[:150].strip(" .") or ascii_stem
    encoded = urllib.parse.quote(f"{readable}-{suffix}.zip", safe="")
    return f'attachment; filename="{ascii_stem}-{suffix}.zip"; ' + f"filename*=UTF-8''{encoded}"
