"""
Where the service keeps files (sources, export packages): Django's default storage, the local disk
(MEDIA_ROOT) for one machine, or an S3-compatible object store shared by every machine when
STORAGE_BUCKET is set (config/settings.py, docs/run/deployment.md).

Either store's failures reach callers as one exception, `StoreUnavailable`: the API answers it 503
with Retry-After, and a worker fails what it was doing with a code, never a 500 or a hang.
"""

import contextlib
import functools
import logging
import os
import time

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.core.files.storage import Storage
from django.db import transaction
from django.db.models.fields.files import FieldFile

from core import errors, ids

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
    _delete(file.storage, file.name)


def remove_after_commit(storage: Storage, name: str) -> None:
    """
    Delete the file `name` once the transaction commits (its row is gone for good). A store that
    fails then is logged, naming the object, and the object is left behind: the deletion is done all
    the same for the client, and an operator can remove it.
    """
    transaction.on_commit(lambda: _delete(storage, name))


def _delete(storage: Storage, name: str) -> None:
    try:
        storage.delete(name)
    except (OSError, BotoCoreError, ClientError) as exc:
        logger.error("file left behind in the store", extra={"file": _shown(name), "reason": _reason(exc)})


def _shown(name: str) -> str:
    # A file is named by its row's id, and an export's id opens its download link: masked in logs.
    folder, _, base = name.rpartition("/")
    stem, dot, suffix = base.partition(".")
    return f"{folder}/{ids.masked(stem)}{dot}{suffix}"


def download_url(file: FieldFile, *, filename: str, media_type: str, method: str = "GET") -> str | None:
    """
    A link to `file` in the object store, signed for `method` (GET or HEAD) and valid for
    DOWNLOAD_LINK_SECONDS, whose answer carries `filename` as an attachment and `media_type`; None
    with the local disk, whose files the web process serves itself. The link names the store at
    STORAGE_PUBLIC_ENDPOINT_URL, where browsers reach it. Signing is local: the store is not asked.
    """
    if not is_object_store():
        return None
    with reaching_store("sign a download link"):
        return _client(settings.STORAGE_PUBLIC_ENDPOINT_URL, _region(), quick=False).generate_presigned_url(
            "get_object" if method != "HEAD" else "head_object",
            Params={
                "Bucket": settings.STORAGE_BUCKET,
                "Key": file.name,
                **(
                    {"ResponseContentDisposition": filename, "ResponseContentType": media_type}
                    if method != "HEAD"
                    else {}
                ),
            },
            ExpiresIn=DOWNLOAD_LINK_SECONDS,
        )


def store_detail() -> dict:
    """
    What the store is and whether it answers, for /readyz: `{"kind", "status", "reason"?}`. The
    object store is asked with short timeouts and no retries, so that a probe never waits on it,
    and at most once in PROBE_SECONDS, so that probes (public, and each a billed request) stay cheap.
    """
    if not is_object_store():
        # MEDIA_ROOT is made on the first file stored, so until then its parent must be writable.
        root = str(settings.MEDIA_ROOT)
        if os.access(root if os.path.exists(root) else os.path.dirname(root), os.W_OK):
            return {"kind": "localDisk", "status": "ok"}
        return {"kind": "localDisk", "status": "down", "reason": "not writable"}
    store = (_endpoint(), settings.STORAGE_BUCKET)
    told_at, told = _probed.get(store, (float("-inf"), {}))
    if time.monotonic() - told_at >= PROBE_SECONDS:
        told = _probe()
        _probed[store] = (time.monotonic(), told)
    return told


PROBE_SECONDS = 10
_probed: dict[tuple, tuple[float, dict]] = {}


def _probe() -> dict:
    client = _client(_endpoint(), _region(), quick=True)
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


def _endpoint() -> str | None:
    return settings.STORAGES["default"]["OPTIONS"].get("endpoint_url")


def _region() -> str | None:
    return settings.STORAGES["default"]["OPTIONS"].get("region_name")


@functools.lru_cache(maxsize=8)
def _client(endpoint_url: str | None, region: str | None, *, quick: bool):
    # Clients of our own, beside the storage's: one that signs links for browsers, and one that asks
    # quickly whether the store answers. Made once per process: a client costs tens of milliseconds.
    config = Config(signature_version="s3v4", s3={"addressing_style": "path"})
    if quick:
        config = config.merge(
            Config(connect_timeout=1, read_timeout=2, retries={"mode": "standard", "max_attempts": 1})
        )
    return boto3.session.Session().client(
        "s3", endpoint_url=endpoint_url or None, region_name=region or None, config=config
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
