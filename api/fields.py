"""What every endpoint's input and output is made of: strict fields, said once for the server and the API document."""

import datetime
import re

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core import text
from core.formats import iso_utc_ms
from core.outbound import urls

# What a text field accepts, said once for the server and the API document alike: no control
# characters (C0, DEL, C1), and at least one visible character. The blank characters are spelled
# out, so that JSON Schema (JavaScript) and Python read the pattern the same way.
_CONTROL = r"\x00-\x1f\x7f-\x9f"
_BLANK_CODES, _BLANKS = text.BLANK_CODES, text.BLANKS
# U+2028 and U+2029 (line and paragraph separators) are written as `\s`, which stands for them in
# JavaScript and Python alike and adds only characters listed here or control characters: a
# TypeScript client generator writes `\u2028` into a regular expression literal as the character
# itself, which ends the line and the literal, and the generated client would not compile.
_BLANK_CLASS = r"\s" + "".join(f"\\u{code:04x}" for code in _BLANK_CODES if code not in (0x2028, 0x2029))
TEXT_PATTERN = rf"^[^{_CONTROL}]*[^{_CONTROL}{_BLANK_CLASS}][^{_CONTROL}]*$"
_CONTROL_CHARACTERS = re.compile(rf"[{_CONTROL}]")


class StrictCharField(serializers.CharField):
    """
    A string and nothing else (DRF's CharField would turn 42 or true into text). The value is
    checked as sent, so the length the API document states is the length checked (TEXT_PATTERN, in
    linear time), and stored without leading and trailing spaces.
    """

    default_error_messages = {
        "not_a_string": "Must be a string.",
        "control_characters": "Must not contain control characters.",
        "blank": "Must not be blank.",
    }

    def __init__(self, **kwargs):
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        value = super().to_internal_value(data)
        if _CONTROL_CHARACTERS.search(value):
            self.fail("control_characters")
        if not value.strip(_BLANKS):
            self.fail("blank")
        return value

    def run_validation(self, data=serializers.empty):
        value = super().run_validation(data)  # every check, on the value as sent
        return value.strip() if isinstance(value, str) else value


class StrictChoiceField(serializers.ChoiceField):
    default_error_messages = {"not_a_string": "Must be a string."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """
    An integer and nothing else: DRF's IntegerField would take "3" or true. A number with no
    fraction (3.0) is an integer, as JSON Schema counts it.
    """

    default_error_messages = {"not_an_integer": "Must be an integer."}

    def to_internal_value(self, data):
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("not_an_integer")
        return super().to_internal_value(data)


class StrictListField(serializers.ListField):
    default_error_messages = {"not_a_list": "Must be an array."}

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list")
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "type": "string",
        "format": "uri",
        "maxLength": urls.MAX_URL_LENGTH,
        "pattern": urls.CALLBACK_URL_PATTERN,
        "description": (
            "HTTPS (or HTTP) URL that receives the event: a host name, or a public IP address in its "
            "canonical spelling (IPv4 dotted decimal without leading zeros, IPv6 in brackets as RFC 5952 "
            "writes it), an optional port, and a path and query in ASCII (percent-encode anything else); "
            "no user name or password. Leave it out for no event. The host must resolve to public "
            "addresses only: a name is looked up at each delivery, and a private address is never contacted."
        ),
    }
)
class CallbackUrlField(StrictCharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=urls.MAX_URL_LENGTH, trim_whitespace=False, **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return urls.check_callback_url(value)
        except urls.UnsafeDestination as exc:
            raise serializers.ValidationError(str(exc)) from None


class UtcMillisecondsField(serializers.DateTimeField):
    """`2026-04-28T17:14:08.000Z`: ISO 8601 in UTC with milliseconds, as the API shows times."""

    def to_representation(self, value):
        return iso_utc_ms(value)


class StrictBooleanField(serializers.Field):
    """`true` or `false` in a query string, as the API document's booleans are written, and nothing else."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data):
        if data not in ("true", "false"):
            self.fail("invalid")
        return data == "true"


# RFC 3339 (what the API document's `date-time` means): the separator T or t, an offset Z, z or ±hh:mm.
_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII,  # digits 0-9 only
)


class Rfc3339Field(serializers.Field):
    default_error_messages = {"invalid": "Must be a date and time of RFC 3339, such as 2026-03-01T12:00:00Z."}

    def to_internal_value(self, data):
        match = _RFC3339.fullmatch(data) if isinstance(data, str) else None
        if match is None:
            self.fail("invalid")
        year, month, day, hour, minute, second, fraction, utc, sign, offset_hours, offset_minutes = match.groups()
        if int(second) > 60 or int(offset_hours or 0) > 23 or int(offset_minutes or 0) > 59:
            self.fail("invalid")  # 60 is a leap second; the calendar checks the rest
        try:
            offset = datetime.timedelta(hours=int(offset_hours or 0), minutes=int(offset_minutes or 0))
            zone = datetime.UTC if utc else datetime.timezone(offset if sign == "+" else -offset)
            moment = datetime.datetime(
                int(year), int(month), int(day), int(hour), int(minute), min(int(second), 59),  # a leap second
                int((fraction or "0")[:6].ljust(6, "0")), tzinfo=zone,
            )
        except ValueError:
            self.fail("invalid")
        try:
            return moment.astimezone(datetime.UTC)
        except OverflowError:  # in UTC, a moment of year 1 (or 9999) with an offset falls off the calendar
            if sign == "-":
                return datetime.datetime.max.replace(tzinfo=datetime.UTC)
            return datetime.datetime.min.replace(tzinfo=datetime.UTC)
