import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api import pagination
from api.fields import CallbackUrlField, StrictCharField, UtcMillisecondsField
from api.inputs import Input
from core.outbound import urls
from sources import failures
from sources.extraction import matter, sniff
from sources.models import Source

NAME_MAX_LENGTH = 200


@extend_schema_field(
    {
        "type": "string",
        "format": "uri",
        "maxLength": urls.MAX_URL_LENGTH,
        "pattern": urls.URL_PATTERN,
        "description": (
            "The http or https page or file to read: a host name, or a public IP address in its canonical "
            "spelling (as for callbackUrl), an optional port, and a path and query in ASCII (percent-encode "
            "anything else); no user name or password. It is fetched from public addresses only, "
            "following at most 3 redirects."
        ),
    }
)
class SourceUrlField(StrictCharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=urls.MAX_URL_LENGTH, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return urls.check_url(value, what="The URL")
        except urls.UnsafeDestination as exc:
            raise serializers.ValidationError(str(exc)) from None


class UploadSourceInput(Input):
    """A multipart upload: the file, and optionally a name for it and a callback URL."""

    file = serializers.FileField(
        allow_empty_file=True,  # an empty file is refused by the service, with a clearer message
        use_url=False,
        help_text="The document: PDF, DOCX, PPTX, HTML, Markdown or plain text, told apart by its content.",
    )
    name = StrictCharField(
        min_length=1, max_length=NAME_MAX_LENGTH, required=False, help_text="Default: the file's name."
    )
    callbackUrl = CallbackUrlField(source="callback_url", required=False)


class UrlSourceInput(Input):
    url = SourceUrlField()
    name = StrictCharField(
        min_length=1, max_length=NAME_MAX_LENGTH, required=False,
        help_text=(
            "Default: the URL without its query or fragment (learners see the name beside its citations)."
        ),
    )
    callbackUrl = CallbackUrlField(source="callback_url", required=False)


class SourceErrorOutput(serializers.Serializer):
    """Why a source failed: show `message`, switch on `code`."""

    message = serializers.CharField(source="error_message", help_text="Safe to show to end users.")
    code = serializers.ChoiceField(source="error_code", choices=failures.CODES)


class OutlineEntry(serializers.Serializer):
    title = serializers.CharField()
    level = serializers.IntegerField(min_value=1, max_value=6)
    page = serializers.IntegerField(allow_null=True, min_value=1, help_text="Page or slide, from 1; null without pages.")


class MatterPart(serializers.Serializer):
    """A part of the document read as matter: never made into a chapter, lesson, exercise or question."""

    kind = serializers.ChoiceField(choices=list(matter.KINDS))
    title = serializers.CharField(help_text="The outermost heading that names it, without its number; else what it is (\"Title page\").")
    page = serializers.IntegerField(allow_null=True, min_value=1, help_text="First page or slide; null without pages.")
    pageEnd = serializers.IntegerField(allow_null=True, min_value=1, help_text="Last page or slide.")


class SourceOutput(serializers.Serializer):
    """The source object: the answer to upload and poll, and the body of the source events."""

    id = serializers.CharField(source="public_id")
    status = serializers.ChoiceField(choices=Source.Status.choices)
    name = serializers.CharField()
    url = serializers.CharField(allow_null=True, help_text="The page it was read from; null for uploads.")
    mediaType = serializers.ChoiceField(
        choices=list(sniff.MEDIA_TYPES), allow_null=True, help_text="Told from the content; null until known."
    )
    bytes = serializers.IntegerField(allow_null=True, min_value=0, help_text="Size of the file; null until fetched.")
    pages = serializers.IntegerField(allow_null=True, min_value=1, help_text="Pages or slides; null without pages.")
    title = serializers.CharField(allow_null=True, help_text="The document's own title, once read (never its first heading); null when it has none.")
    language = serializers.CharField(
        allow_null=True, help_text="ISO 639-1 code of the text's language, once read, when it is recognised."
    )
    outline = OutlineEntry(many=True, help_text="The document's headings in order, once read.")
    matter = MatterPart(
        many=True,
        help_text=(
            "The parts taken as matter (title page, contents, licence and copyright, index, contributors, "
            "revision history, bibliography), once read: courses are made of the rest, the body."
        ),
    )
    createdAt = UtcMillisecondsField(source="created_at")
    error = SourceErrorOutput(source="*", required=False, help_text="Present only when status is failed.")

    def to_representation(self, source):
        ready = source.status == Source.Status.READY
        return {
            "id": source.public_id,
            "status": source.status,
            "name": source.name,
            "url": source.url or None,
            "mediaType": source.media_type or None,
            "bytes": source.bytes,
            "pages": source.pages if ready else None,
            "title": (source.title or None) if ready else None,
            "language": (source.language or None) if ready else None,
            "outline": source.outline if ready else [],
            "matter": source.matter if ready else [],
            "createdAt": UtcMillisecondsField().to_representation(source.created_at),
            **(
                {"error": {"message": source.error_message, "code": source.error_code}}
                if source.status == Source.Status.FAILED
                else {}
            ),
        }


def source_output(source: Source) -> dict:
    return SourceOutput(source).data


class SourceList(serializers.Serializer):
    sources = SourceOutput(many=True, help_text="Newest first.")
    nextCursor = serializers.CharField(
        allow_null=True, help_text="Pass as `cursor` for the next page; null on the last page."
    )


class ListSourcesInput(Input):
    cursor = pagination.CursorField(required=False, help_text="`nextCursor` of the previous page.")
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)


SOURCE_ID_PATTERN = r"^src_[A-Za-z0-9]{22}$"


@extend_schema_field({"type": "string", "pattern": SOURCE_ID_PATTERN, "description": "A source's `id`."})
class SourceIdField(StrictCharField):
    default_error_messages = {"not_a_source_id": "Must be a source id (src_ and 22 letters or digits)."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not re.fullmatch(SOURCE_ID_PATTERN, value):
            self.fail("not_a_source_id")
        return value


class SourceEvent(serializers.Serializer):
    event = serializers.ChoiceField(choices=["source.ready", "source.failed"])
    source = SourceOutput()
