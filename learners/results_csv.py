"""Learner results as CSV: the rows of `GET …/results`, one column per field, in the same order."""

import csv
import io
from collections.abc import Iterable

COLUMNS = (
    "learnerId", "externalId", "name", "startedAt", "lastSeenAt", "progressPercent", "completedAt", "bestScore",
    "passed", "signedAt", "signedName", "version", "pagesSeen", "pages", "timeSpentSeconds", "attempts",
)
# A cell a spreadsheet would read as a formula (a name or id a client or learner typed, say
# "=HYPERLINK(…)") is written with a leading apostrophe, which spreadsheets show as text.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def header() -> str:
    return _line(COLUMNS)


def lines(rows: Iterable[dict]) -> Iterable[str]:
    """The header, then one CSV line per result row (result_output dicts)."""
    yield header()
    for row in rows:
        yield _line(_cell(row[column]) for column in COLUMNS)


def document(rows: Iterable[dict]) -> str:
    return "".join(lines(rows))


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _line(cells: Iterable[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(list(cells))
    return out.getvalue()
