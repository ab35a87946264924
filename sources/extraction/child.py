"""
The child process that reads one untrusted document (`python -m sources.extraction.child`).

It takes its request as JSON on the command line, sets its own resource limits before opening the
file, and writes one JSON object to stdout: the document, or an error with its code. Anything it
cannot survive (memory exhausted inside a C library, the CPU limit) kills only this process; the
parent (`sandbox`) tells what happened from the way it ended.
"""

from __future__ import annotations

import json
import resource
import sys

from sources.extraction import sniff
from sources.extraction.document import (
    MAX_BLOCKS,
    NO_TEXT,
    TOO_LARGE,
    UNREADABLE,
    UNSUPPORTED,
    ExtractionError,
)


def limit_resources(*, memory_bytes: int, cpu_seconds: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash leaves no core file behind
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # reading a document writes no file


def read(path: str, media_type: str, *, max_pages: int, max_characters: int):
    if media_type == sniff.PDF:
        from sources.extraction import pdf

        document = pdf.read(path, max_pages=max_pages)
    elif media_type == sniff.DOCX:
        from sources.extraction import office

        document = office.read_docx(path, max_pages=max_pages)
    elif media_type == sniff.PPTX:
        from sources.extraction import office

        document = office.read_pptx(path, max_pages=max_pages)
    elif media_type == sniff.HTML:
        from sources.extraction import web

        document = web.read_html(path)
    elif media_type == sniff.MARKDOWN:
        from sources.extraction import text

        document = text.read_markdown(path)
    elif media_type == sniff.TEXT:
        from sources.extraction import text

        document = text.read_plain_text(path)
    else:
        raise ExtractionError(UNSUPPORTED, "This kind of file is not supported.")
    if len(document.blocks) > MAX_BLOCKS:
        raise ExtractionError(
            TOO_LARGE, f"The document has more than {MAX_BLOCKS:,} paragraphs, headings and table rows."
        )
    characters = sum(len(block.text) for block in document.blocks)
    if characters > max_characters:
        raise ExtractionError(TOO_LARGE, f"The document holds more than {max_characters} characters of text.")
    if not any(block.text.strip() for block in document.blocks):
        raise ExtractionError(NO_TEXT, "The document has no text to read (text in images is not read: no OCR).")
    return document


def main() -> int:
    request = json.loads(sys.argv[1])
    limit_resources(memory_bytes=request["memoryBytes"], cpu_seconds=request["cpuSeconds"])
    try:
        document = read(
            request["path"],
            request["mediaType"],
            max_pages=request["maxPages"],
            max_characters=request["maxCharacters"],
        )
        answer = {"document": document.to_json()}
    except ExtractionError as exc:
        answer = {"error": {"code": exc.code, "message": exc.message}}
    except MemoryError:
        answer = {"error": {"code": TOO_LARGE, "message": "Reading the document needs more memory than allowed."}}
    except RecursionError:
        answer = {"error": {"code": UNREADABLE, "message": "The document is nested too deeply to read."}}
    except Exception as exc:  # a library choking on a damaged file
        answer = {"error": {"code": UNREADABLE, "message": "The document could not be read: it is damaged.",
                            "detail": type(exc).__name__}}
    sys.stdout.write(json.dumps(answer, ensure_ascii=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
