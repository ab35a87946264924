import datetime


def iso_utc_ms(moment: datetime.datetime) -> str:
    """`2026-04-28T17:14:08.000Z`: ISO 8601 in UTC with milliseconds, as the API shows times."""
    return moment.astimezone(datetime.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
