"""
Pages of a list, newest first, by keyset: the cursor is the creation time (microseconds since 1970)
and row id of the last row of the page before, so a page never repeats or skips a row whatever is
added or deleted meanwhile. Said once for the server and the API document (PATTERN).
"""

import dataclasses
import datetime
import re

from django.db.models import Q, QuerySet
from rest_framework import serializers

PATTERN = r"^[0-9]{1,16}_[0-9]{1,18}$"

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


class CursorField(serializers.CharField):
    """
    A cursor of PATTERN's shape (or `pattern`'s), the whole value as sent: DRF's RegexField trims
    spaces and line breaks first, and Python's `$` matches before a final line break, so both took
    `1_1\n`.
    """

    default_error_messages = {"invalid": "This value does not match the required pattern."}

    def __init__(self, *, pattern: str = PATTERN, **kwargs):
        super().__init__(trim_whitespace=False, **kwargs)
        self.whole = re.compile(pattern.removeprefix("^").removesuffix("$"))

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not self.whole.fullmatch(value):
            self.fail("invalid")
        return value


@dataclasses.dataclass(frozen=True)
class Page:
    rows: list
    next_cursor: str | None


def newest_first(rows: QuerySet, *, cursor: str | None, limit: int) -> Page:
    """
    One page of `rows` (a queryset of a model with `created_at`), newest first, `limit` at a time,
    after `cursor` (a `next_cursor` of PATTERN's shape, already checked): one query.
    """
    rows = rows.order_by("-created_at", "-id")
    if cursor:
        micros, _, row_id = cursor.partition("_")
        moment = from_micros(int(micros))
        rows = rows.filter(Q(created_at__lt=moment) | Q(created_at=moment, id__lt=int(row_id)))
    found = list(rows[: limit + 1])
    if len(found) <= limit:
        return Page(rows=found, next_cursor=None)
    last = found[limit - 1]
    return Page(rows=found[:limit], next_cursor=f"{to_micros(last.created_at)}_{last.pk}")


def to_micros(moment: datetime.datetime) -> int:
    return (moment - _EPOCH) // datetime.timedelta(microseconds=1)


def from_micros(micros: int) -> datetime.datetime:
    # Any cursor of the documented shape is a position; one beyond the calendar is the end of time.
    try:
        return _EPOCH + datetime.timedelta(microseconds=micros)
    except OverflowError:
        return datetime.datetime.max.replace(tzinfo=datetime.UTC)
