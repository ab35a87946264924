"""Running the tools the client tests stand on (the generators, `tsc`, the document's linters) from the checkout's root."""

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# A limit on how long a tool may run before the test gives up on it, never an assertion.
TOOL_LIMIT_SECONDS = 300


def run(command: list, *, check: bool = True, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TOOL_LIMIT_SECONDS,
        check=False,  # checked below, with the tool's output in the message
        **kwargs,
    )
    if check:
        assert done.returncode == 0, f"{command[0]} failed:\n{done.stdout[-10_000:]}\n{done.stderr[-10_000:]}"
    return done
