"""Learner results as CSV: the rows of `GET …/results`, one column per field, in the same order."""

import csv
import io
import re
from collections.abc import Iterable

COLUMNS = (
    "learnerId", "externalId", "name", "startedAt", "lastSeenAt", "progressPercent", "completedAt", "bestScore",
    "passed", "signedAt", "signedName", "version", "pagesSeen", "pages", "timeSpentSeconds", "attempts",
)
# A formula in a name or id a client or learner typed (say "=HYPERLINK(…)") is made text by an
# apostrophe before it. Every cell is quoted, so a reader that honours the quotes keeps a cell whole;
# but one reading with another separator (Excel in a ";" locale: German, French, Spanish, Portuguese)
# may cut a cell at its separator, and a piece that starts with a formula runs. So a formula is looked
# for at the start and after every separator (spaces between), and the apostrophe goes right before
# it, where it starts whatever piece the cell is cut into (docs/run/security.md).
_FORMULA = re.compile(r"(?:^|[,;\t])[ ]*(?=[=+\-@\t\r])")


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
    return _FORMULA.sub(lambda found: found.group() + "'", str(value))


def _line(cells: Iterable[str]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_ALL).writerow(list(cells))
    return out.getvalue()
