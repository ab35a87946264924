"""
Where the service keeps files (sources, export packages): Django's default storage, the local disk
(MEDIA_ROOT) for one machine, or an S3-compatible object store shared by every machine when
STORAGE_BUCKET is set (config/settings.py, docs/run/deployment.md).

Either store's failures reach callers as one exception, `StoreUnavailable`: the API answers it 503
with Retry-After, and a worker fails what it was doing with a code, never a 500 or a hang.
"""

import contextlib
import logging
import os

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.db.models.fields.files import FieldFile

from core import errors

logger = logging.getLogger(__name__)

# How long a presigned download link lets its holder fetch the object: enough to follow the
# redirect, short enough that a leaked link soon stops working (a revoked export's object is
# deleted at once anyway).
DOWNLOAD_LINK_SECONDS = 300


class StoreUnavailable(errors.ServiceUnavailable):
    """The file store could not be reached, or refused the operation."""


def is_object_store() -> bool:
    return bool(settings.STORAGE_BUCKET)


@contextlib.contextmanager
def reaching_store(operation: str):
    """Turn any failure of the store during `operation` into StoreUnavailable, logged once."""
    try:
        yield
    except StoreUnavailable:
        raise
    except (OSError, BotoCoreError, ClientError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        logger.error("file store unavailable", extra={"operation": operation, "reason": _reason(exc)})
        raise StoreUnavailable() from exc


def discard(file: FieldFile) -> None:
    """
    Delete `file`, stored for a row that was not written. A store that fails here is logged and the
    object left behind, rather than hiding the error that made the row fail.
    """
    try:
        file.delete(save=False)
    except (OSError, BotoCoreError, ClientError) as exc:
        logger.error("file left behind in the store", extra={"file": file.name, "reason": _reason(exc)})


def download_url(file: FieldFile, *, filename: str, media_type: str) -> str | None:
    """
    A presigned link to `file` in the object store, valid for DOWNLOAD_LINK_SECONDS, whose answer
    carries `filename` as an attachment and `media_type`; None with the local disk, whose files
    the web process serves itself. Signing is local: the store is not asked.
    """
    if not is_object_store():
        return None
    with reaching_store("sign a download link"):
        return file.storage.url(
            file.name,
            parameters={"ResponseContentDisposition": filename, "ResponseContentType": media_type},
            expire=DOWNLOAD_LINK_SECONDS,
        )


def store_detail() -> dict:
    """
    What the store is and whether it answers, for /readyz: `{"kind", "status", "reason"?}`. The
    object store is asked once with short timeouts and no retries, so that a probe never waits on it.
    """
    if not is_object_store():
        # MEDIA_ROOT is made on the first file stored, so until then its parent must be writable.
        root = str(settings.MEDIA_ROOT)
        if os.access(root if os.path.exists(root) else os.path.dirname(root), os.W_OK):
            return {"kind": "localDisk", "status": "ok"}
        return {"kind": "localDisk", "status": "down", "reason": "not writable"}
    client = _probe_client()
    try:
        client.head_bucket(Bucket=settings.STORAGE_BUCKET)
    except (BotoCoreError, ClientError) as exc:
        reason = _reason(exc)
        if reason == "403":
            # An answer to HEAD has no body: a listing of one key says why it was refused (wrong
            # credentials, or credentials without rights on the bucket).
            try:
                client.list_objects_v2(Bucket=settings.STORAGE_BUCKET, MaxKeys=1)
            except (BotoCoreError, ClientError) as listing:
                reason = _reason(listing)
        return {"kind": "objectStore", "status": "down", "reason": _HEAD_REFUSALS.get(reason, reason)}
    return {"kind": "objectStore", "status": "ok"}


_HEAD_REFUSALS = {"403": "AccessDenied", "404": "NoSuchBucket"}


def _probe_client():
    options = settings.STORAGES["default"]["OPTIONS"]
    quick = Config(connect_timeout=1, read_timeout=2, retries={"mode": "standard", "max_attempts": 1})
    return boto3.session.Session().client(
        "s3",
        endpoint_url=options.get("endpoint_url"),
        region_name=options.get("region_name"),
        config=options["client_config"].merge(quick),
    )


def _reason(exc: Exception) -> str:
    # A short, secret-free description: the store's error code (AccessDenied, NoSuchBucket,
    # InvalidAccessKeyId…) or the kind of failure; never the request, which carries a signature.
    if isinstance(exc, ClientError):
        answer = exc.response
        return str(
            answer.get("Error", {}).get("Code") or answer.get("ResponseMetadata", {}).get("HTTPStatusCode")
        )
    return type(exc).__name__
