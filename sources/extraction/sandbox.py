"""
Read a document in a child process with limits of its own, so that no file, however hostile, can
take the calling worker down: address space (memory), CPU time, and a wall-clock deadline after
which the child is killed. Confined (`isolation`), the child has no network, sees no other process
and nothing of the file system but the one document and what it must load; unconfined (where
SOURCE_SANDBOX allows it), it still sees neither the parent's environment nor its standard streams.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

from sources.extraction import isolation
from sources.extraction.document import TOO_LARGE, UNREADABLE, Document, ExtractionError

logger = logging.getLogger(__name__)
PROJECT_DIR = Path(__file__).resolve().parents[2]
# The program that reads a document: `python -m READER <request>` (see its module).
READER = "sources.extraction.child"
# The most a document's answer can be: 5,000,000 characters escaped as JSON (12 bytes at most each)
# in at most MAX_BLOCKS blocks.
_MAX_ANSWER_BYTES = 80 * 1024 * 1024


def extract(
    *,
    path: str,
    media_type: str,
    max_pages: int,
    max_characters: int,
    timeout_s: float,
    memory_mb: int,
    confined: bool,
) -> Document:
    """
    The document in the file at `path`, read as `media_type` in a child process, `confined` in the
    sandbox or not.
    :raises ExtractionError: with the code and message for the client, whatever went wrong
    """
    request = {
        "path": isolation.DOCUMENT if confined else path,
        "mediaType": media_type,
        "maxPages": max_pages,
        "maxCharacters": max_characters,
        "memoryBytes": memory_mb * 1024 * 1024,
        "cpuSeconds": max(int(timeout_s), 1),
    }
    program = [sys.executable, "-m", READER, json.dumps(request)]
    streams = {
        "stdin": subprocess.DEVNULL,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.DEVNULL,
        "start_new_session": True,  # its own process group: killed whole, never signalling us
    }
    if confined:
        process = isolation.start(program, document=path, package=READER.split(".")[0], **streams)
    else:
        process = subprocess.Popen(
            program,
            cwd=PROJECT_DIR,
            env={"PYTHONPATH": str(PROJECT_DIR), "PATH": os.defpath, "LANG": "C.UTF-8", "PYTHONHASHSEED": "0"},
            **streams,
        )
    try:
        output, _ = process.communicate(timeout=timeout_s + 5)
    except subprocess.TimeoutExpired:
        _kill(process)
        logger.warning("source reader stopped at its time limit", extra={"media_type": media_type})
        raise ExtractionError(TOO_LARGE, f"Reading the document took longer than {timeout_s:g} seconds.") from None
    except BaseException:
        _kill(process)
        raise
    returncode = isolation.child_status(process.returncode) if confined else process.returncode
    if returncode != 0:
        # How the child ended, never what it read: the document is the client's.
        logger.warning("source reader ended abnormally", extra={"media_type": media_type, "returncode": returncode})
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        raise ExtractionError(TOO_LARGE, f"Reading the document took longer than {timeout_s:g} seconds of CPU time.")
    if returncode == -signal.SIGABRT:
        # What PDFium and C++ libraries do when an allocation fails under the memory limit.
        raise ExtractionError(
            TOO_LARGE, f"Reading the document needs more than the {memory_mb} MB of memory allowed."
        )
    if returncode != 0 or not output or len(output) > _MAX_ANSWER_BYTES:
        raise ExtractionError(UNREADABLE, "The document could not be read: it is damaged.")
    try:
        answer = json.loads(output)
        if "error" in answer:
            if "detail" in answer["error"]:  # a library failed on the file: which exception, for staff
                logger.warning(
                    "source reader failed", extra={"media_type": media_type, "exception": answer["error"]["detail"]}
                )
            raise ExtractionError(str(answer["error"]["code"]), str(answer["error"]["message"]))
        return Document.from_json(answer["document"])
    except (ValueError, KeyError, TypeError):
        raise ExtractionError(UNREADABLE, "The document could not be read: it is damaged.") from None


def _kill(process: subprocess.Popen) -> None:
    # Confined, the group is bwrap's: the sandbox dies with it (--die-with-parent), setsid or not.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()
