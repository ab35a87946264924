"""
Idempotency-Key: a request sent again with the same key and body within 24 hours gets the answer of
the first one (a job, or an export) instead of doing the work twice. A record names what the first
request made by its public id; the app that made it finds it again.
"""

import datetime
import hashlib
import json

from django.db import connection
from django.utils import timezone

from accounts.models import ApiKey
from core import errors
from courses.models import IdempotencyRecord

IDEMPOTENCY_WINDOW = datetime.timedelta(hours=24)


class IdempotencyKeyReused(errors.AppError):
    status, code = 409, "IDEMPOTENCY_KEY_REUSED"
    message = "This Idempotency-Key was already used with a different request body."


class InvalidIdempotencyKey(errors.AppError):
    message = "Idempotency-Key must be 1 to 255 printable ASCII characters."


def replay(*, api_key: ApiKey, key: str, request: dict) -> IdempotencyRecord | None:
    """
    The record of the first request with this key in the last 24 hours, if `request` is the same;
    None if the key is new (or expired). Call inside the transaction that records the new request.
    :raises IdempotencyKeyReused: if the key was used for a different request
    """
    # Requests with the same key wait for each other (a lock for this transaction only), so two
    # retries racing each other still make one job and charge one credit.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [api_key.pk, key])
    record = IdempotencyRecord.objects.filter(api_key=api_key, key=key).first()
    if record is None:
        return None
    if record.created_at < timezone.now() - IDEMPOTENCY_WINDOW:
        record.delete()
        return None
    if record.request_hash != request_hash(request):
        raise IdempotencyKeyReused()
    return record


def purge_expired() -> int:
    """Forget idempotency keys older than 24 hours; return how many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - IDEMPOTENCY_WINDOW).delete()
    return deleted


def request_hash(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()


def record(*, api_key: ApiKey, key: str, request: dict, made: str) -> IdempotencyRecord:
    """Remember what the first request with this key made: its public id (a job's, an export's)."""
    return IdempotencyRecord.objects.create(api_key=api_key, key=key, request_hash=request_hash(request), made=made)


def forget(record: IdempotencyRecord) -> None:
    """Forget a record whose object is gone (an export revoked since): the key is new again."""
    record.delete()


def key_of(request) -> str | None:
    """The request's Idempotency-Key, or None. :raises InvalidIdempotencyKey: for a malformed one"""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not (1 <= len(key) <= 255 and key.isascii() and key.isprintable()):
        raise InvalidIdempotencyKey()
    return key
