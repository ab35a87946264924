"""What every export package needs, whatever its format: XML text from course text, and the zip."""

import datetime
import io
import re
import zipfile
from collections.abc import Iterable

# Characters XML 1.0 cannot carry at all; the course text is model output and may hold them.
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str, max_length: int | None = None) -> str:
    """The text without the characters XML cannot carry, cut to `max_length` with an ellipsis."""
    text = _NOT_XML.sub("", text)
    if max_length is not None and len(text) > max_length:
        text = text[: max_length - 1].rstrip() + "…"
    return text


def zip_files(files: Iterable[tuple[str, bytes]]) -> bytes:
    """A deflated zip of the files, in the order given, readable by everyone, stamped now (UTC)."""
    moment = datetime.datetime.now(datetime.UTC).timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for name, data in files:
            entry = zipfile.ZipInfo(name, date_time=moment)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, data)
    return buffer.getvalue()
