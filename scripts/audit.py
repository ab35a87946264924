"""
`make audit`: known vulnerabilities in what production runs and in the test tools.

- requirements.txt, as pinned and hashed, with pip-audit against PyPI's advisories: read as a list
  (`--disable-pip`), so nothing is installed and the service's own code is not looked at;
- package-lock.json with `npm audit` against the npm registry's advisories, from the lock file alone.

Exits 0 only when every package was checked and none has a known vulnerability; 1 when one has; 2
when an advisory service could not be reached, or answered for only some packages. An audit that
could not ask is never a pass: it says so plainly (docs/contribute/dependencies.md).
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSED, VULNERABLE, NOT_AUDITED = 0, 1, 2
# What a network failure looks like in pip-audit's last words (requests, urllib3, the resolver).
_UNREACHABLE = (
    "ConnectionError", "ProxyError", "Timeout", "Failed to establish", "Max retries", "Connection refused",
    "Name or service not known", "Temporary failure in name resolution",
)


def audit_python() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        done = subprocess.run(
            [
                sys.executable, "-m", "pip_audit", "--requirement", "requirements.txt", "--require-hashes",
                "--disable-pip", "--progress-spinner", "off", "--format", "json", "--output", str(report),
                # A cache of its own, empty: every audit asks the service afresh.
                "--cache-dir", str(Path(scratch) / "cache"),
            ],
            cwd=ROOT, capture_output=True, text=True,
        )
        found = json.loads(report.read_text()) if report.exists() and report.stat().st_size else None
    name = "requirements.txt (pip-audit)"
    if found is None:
        detail = _last_line(done.stderr) or f"exit status {done.returncode}"
        if any(sign in done.stderr for sign in _UNREACHABLE):
            return _not_audited(name, f"the advisory service (PyPI) could not be reached: {detail}")
        return _not_audited(name, f"pip-audit failed: {detail}")
    packages = found["dependencies"]
    skipped = [package for package in packages if "skip_reason" in package]
    if skipped:
        first = skipped[0]["skip_reason"]
        return _not_audited(
            name, f"the advisory service had no answer for {len(skipped)} of {len(packages)} packages ({first})"
        )
    vulnerable = [
        f"{package['name']} {package['version']}: {', '.join(vuln['id'] for vuln in package['vulns'])}"
        f" (fixed in {', '.join(sorted({fix for vuln in package['vulns'] for fix in vuln['fix_versions']})) or 'none yet'})"
        for package in packages
        if package["vulns"]
    ]
    if vulnerable:
        print(f"{name}: KNOWN VULNERABILITIES in {len(vulnerable)} packages:")
        print("\n".join(f"  {line}" for line in vulnerable))
        return VULNERABLE
    print(f"{name}: no known vulnerability in its {len(packages)} packages.")
    return PASSED


def audit_npm() -> int:
    name = "package-lock.json (npm audit)"
    npm = shutil.which("npm")
    if npm is None:
        return _not_audited(name, "npm is not installed (`make audit` installs it)")
    done = subprocess.run(
        [npm, "audit", "--package-lock-only", "--json"], cwd=ROOT, capture_output=True, text=True
    )
    try:
        found = json.loads(done.stdout)
    except ValueError:
        found = {}
    if "auditReportVersion" not in found:
        # npm answers an unreachable or refusing service with exit status 1, as it does a vulnerability.
        detail = found.get("message") or _last_line(done.stderr) or f"exit status {done.returncode}"
        return _not_audited(
            name, f"the advisory service (the npm registry) could not be reached, or refused the audit: {detail}"
        )
    vulnerable = found["vulnerabilities"]
    if vulnerable:
        print(f"{name}: KNOWN VULNERABILITIES in {len(vulnerable)} packages:")
        print("\n".join(f"  {package}: {advisory['severity']}" for package, advisory in sorted(vulnerable.items())))
        return VULNERABLE
    print(f"{name}: no known vulnerability in its {found['metadata']['dependencies']['total']} packages.")
    return PASSED


def _not_audited(name: str, why: str) -> int:
    print(f"{name}: NOT AUDITED: {why}. This is not a pass.")
    return NOT_AUDITED


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:500] if lines else ""


def main() -> int:
    # Both are run, whatever the first says; the worst outcome is the exit status.
    return max(audit_python(), audit_npm())


if __name__ == "__main__":
    sys.exit(main())
