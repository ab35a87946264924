"""
`make audit` (scripts/audit.py) never passes an audit it could not make: with both advisory services
out of reach it fails, and says so. The test reaches no network: every request goes to a proxy on a
loopback port where nothing listens.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # free once closed: nothing listens there


def test_an_audit_that_cannot_reach_the_advisory_services_fails_and_says_so():
    proxy = f"http://127.0.0.1:{closed_port()}"
    proxies = ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy", "npm_config_proxy", "npm_config_https_proxy"]
    env = {**os.environ, **dict.fromkeys(proxies, proxy), "NO_PROXY": "", "no_proxy": "", "npm_config_noproxy": ""}

    done = subprocess.run(
        [sys.executable, "scripts/audit.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )

    said = done.stdout.splitlines()
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(said) == 2, said
    assert said[0].startswith(
        "requirements.txt (pip-audit): NOT AUDITED: the advisory service (PyPI) could not be reached: "
    )
    assert said[1].startswith(
        "package-lock.json (npm audit): NOT AUDITED: the advisory service (the npm registry) could not be "
        "reached, or refused the audit: "
    )
    assert all(line.endswith(". This is not a pass.") for line in said)
    assert all("Connection refused" in line or "ECONNREFUSED" in line for line in said)
