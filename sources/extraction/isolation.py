"""
Where the child that reads a document runs: confined by bubblewrap (`bwrap`), so that a reader
taken over by a crafted file holds nothing worth having.

The child gets namespaces of its own: no network (a loopback of its own, with nothing on it), no
other process (its own PID namespace, and no /proc at all), no IPC, no further user namespaces. It
runs as uid 65534 of its user namespace with no capabilities and `no_new_privs`, in a file system of
read-only binds: the system's `/usr`, the Python it runs on, its packages, the readers' code, and
the one document; nothing is writable. Nothing of the project beside the readers (not
`.env`, not stored files) is there, even where the project lives under /usr. A seccomp filter,
where the kernel has one, refuses the system calls a reader never makes (sockets, new processes,
tracing, mounting, kernel keys, loading BPF).

Nothing here imports Django: the caller passes the settings.
"""

from __future__ import annotations

import dataclasses
import errno
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parents[2]
# Where the document and the readers' code are inside the sandbox.
DOCUMENT = "/input/document"
CODE = "/code"
# The system calls a document reader never makes: refused with EPERM, so that a reader taken over
# still ends with an answer the worker can read, never a kernel-killed mystery.
_REFUSED_CALLS = (
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "open_tree", "move_mount", "fsopen",
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "personality",
    "name_to_handle_at", "open_by_handle_at", "execveat",
    # No new process: the memory and CPU limits are a process's own, which a fork would multiply.
    "fork", "vfork",
)
_CLONE_THREAD = 0x00010000
# bwrap reports a child killed by a signal as this plus the signal's number, as shells do.
_SIGNAL_EXIT_BASE = 128
# How long an answer that the sandbox cannot be set up holds before it is checked again.
_RECHECK_AFTER_S = 60
# What the check runs in the sandbox: the readers and what they load.
_CHECK = "import sources.extraction.child, sources.extraction.pdf, sources.extraction.office, sources.extraction.web"


@dataclasses.dataclass(frozen=True)
class State:
    """Whether documents can be read confined on this machine, and if not, why."""

    available: bool
    seccomp: bool = False
    reason: str = ""


def command(program: list[str], *, document: str, package: str, seccomp_fd: int | None = None) -> list[str]:
    """
    The command that runs `program` (an argv whose first item is this Python) in the sandbox, with
    the file `document` at DOCUMENT and the project's `package` (read-only, the only part of the
    project there: not `.env`, not stored files) under CODE, the working directory; filtered by the
    seccomp program readable on `seccomp_fd`, which the caller passes on.
    """
    python = _python_dirs()
    outside = [arg for source, target in python if not _under(target, str(PROJECT_DIR))
               for arg in ("--ro-bind", source, target)]
    # A project under a directory bound here (/usr/src/app) is hidden; a virtualenv in it bound again.
    hide = any(_under(str(PROJECT_DIR), target) for target in ["/usr", *(t for _, t in python)])
    inside = [arg for source, target in python if _under(target, str(PROJECT_DIR))
              for arg in ("--ro-bind", source, target)]
    return [
        _bwrap(),
        "--unshare-all", "--unshare-user", "--disable-userns",
        "--uid", "65534", "--gid", "65534",
        "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--clearenv", "--setenv", "PYTHONPATH", CODE, "--setenv", "LANG", "C.UTF-8",
        "--setenv", "PYTHONHASHSEED", "0", "--setenv", "PYTHONDONTWRITEBYTECODE", "1",
        # No /tmp: a reader writes nothing (no file may grow past 0 bytes), and a project under /tmp
        # (its virtualenv) is bound where it is.
        "--dev", "/dev",
        "--ro-bind", "/usr", "/usr",
        *_merged_usr_links(),
        *(["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"] if os.path.exists("/etc/ld.so.cache") else []),
        *outside,
        *(["--tmpfs", str(PROJECT_DIR)] if hide else []),
        *inside,
        "--ro-bind", str(PROJECT_DIR / package), f"{CODE}/{package}",
        "--ro-bind", document, DOCUMENT,
        # No /proc: container runtimes mask parts of theirs, and the kernel then refuses a new one.
        "--remount-ro", "/",
        "--chdir", CODE,
        *(["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []),
        "--",
        *program,
    ]


def check() -> State:
    """
    Whether documents can be read in the sandbox here, and if not, why: the readers are loaded in
    it once. A success holds for the process's life; a failure is checked again after a minute.
    """
    global _known, _known_at
    if _known is None or (not _known.available and time.monotonic() - _known_at > _RECHECK_AFTER_S):
        _known, _known_at = _check(), time.monotonic()
    return _known


_known: State | None = None
_known_at = 0.0


def _check() -> State:
    if not shutil.which(_bwrap()):
        return State(False, reason="bubblewrap (bwrap) is not installed")
    with tempfile.NamedTemporaryFile(prefix="sandbox-check-") as probe:
        try:
            process = start(
                [sys.executable, "-c", _CHECK], document=probe.name, package="sources",
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            )
            _, said = process.communicate(timeout=30)
        except OSError as exc:
            return State(False, reason=f"bwrap could not be started: {exc}")
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return State(False, reason="the readers did not load in the sandbox within 30 seconds")
    if process.returncode != 0:
        lines = said.decode(errors="replace").strip().splitlines()
        return State(False, reason=(lines[-1] if lines else f"bwrap ended with {process.returncode}")[:300])
    return State(True, seccomp=bool(seccomp_program()))


def start(program: list[str], *, document: str, package: str, **popen) -> subprocess.Popen:
    """Start `program` in the sandbox (see `command`); `popen` are further arguments of Popen."""
    program_fd = _seccomp_pipe()
    try:
        return subprocess.Popen(
            command(program, document=document, package=package, seccomp_fd=program_fd),
            env=_bwrap_environment(),
            pass_fds=[program_fd] if program_fd is not None else [],
            **popen,
        )
    finally:
        if program_fd is not None:
            os.close(program_fd)


@functools.cache
def seccomp_program() -> bytes:
    """
    The compiled seccomp filter (BPF) refusing _REFUSED_CALLS, or b"" where this machine cannot make
    one (no libseccomp) and the sandbox goes without.
    """
    try:
        import pyseccomp
    except (ImportError, OSError):  # the library, or the system's libseccomp, is missing
        return b""
    refusal = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    for call in _REFUSED_CALLS:
        try:
            refusal.add_rule(pyseccomp.ERRNO(errno.EPERM), call)
        except (OSError, ValueError):  # a call this architecture does not have
            continue
    # Threads are clones too: only those sharing the process (CLONE_THREAD) are let through, and
    # clone3, whose flags a filter cannot read, answers "not here" so that the C library uses clone.
    refusal.add_rule(pyseccomp.ERRNO(errno.EPERM), "clone", pyseccomp.Arg(0, pyseccomp.MASKED_EQ, _CLONE_THREAD, 0))
    refusal.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as program:
        refusal.export_bpf(program)
        program.seek(0)
        return program.read()


def child_status(returncode: int) -> int:
    """bwrap's exit status as Popen gives a child's own: a signal's number, negative."""
    if returncode > _SIGNAL_EXIT_BASE:
        return -(returncode - _SIGNAL_EXIT_BASE)
    return returncode


def _seccomp_pipe() -> int | None:
    """A pipe holding the seccomp program, whose read end is returned (None without a program)."""
    program = seccomp_program()
    if not program:
        return None
    read_end, write_end = os.pipe()
    try:
        # A few hundred bytes: far within a pipe's buffer, so the write never waits for bwrap.
        os.write(write_end, program)
    finally:
        os.close(write_end)
    return read_end


def _bwrap() -> str:
    return shutil.which("bwrap") or "bwrap"


def _bwrap_environment() -> dict[str, str]:
    # bwrap itself is the sandbox's PID 1, whose environment its child could read: none of ours.
    return {"PATH": os.defpath, "LANG": "C.UTF-8"}


def _python_dirs() -> list[tuple[str, str]]:
    """
    What this Python needs outside /usr, as (what to bind, where): its installation and its
    virtualenv, each where this process sees it (a virtualenv found through a link too). Nothing
    else of the project directory is there.
    """
    prefixes = {sys.base_prefix, sys.prefix}
    binds = {(os.path.realpath(p), os.path.abspath(p)) for p in prefixes}
    binds = {(source, target) for source, target in binds if not _under(target, "/usr")}
    # A directory inside another is bound with it.
    return sorted(
        (source, target) for source, target in binds
        if not any(other != target and _under(target, other) for _, other in binds)
    )


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _merged_usr_links() -> list[str]:
    """/bin, /lib and friends as the system has them: links into /usr (merged /usr) or binds."""
    args: list[str] = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args
