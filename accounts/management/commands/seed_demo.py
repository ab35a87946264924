import os
import re
from pathlib import Path

from django.core.management.base import BaseCommand

from accounts import queries, services

DEMO_EMAIL = "demo@example.com"
DEMO_FILE = "build/demo.txt"
_KEY = re.compile(rf"\b{services.KEY_PREFIX}[A-Za-z0-9]{{{services.KEY_RANDOM_LENGTH}}}\b")


class Command(BaseCommand):
    help = (
        "Create the demo paid account on first run, and write its API key with the service's addresses "
        "and a curl example to a file (`make run` prints it once the service answers)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--file", default=DEMO_FILE, help=f"Where to write them (default {DEMO_FILE}).")

    def handle(self, *args, port, file, **options):
        path = Path(file)
        plain_key = _demo_key(path)
        _write_private(path, _demo_text(base_url=f"http://localhost:{port}", plain_key=plain_key))
        self.stdout.write(
            f"Demo account {DEMO_EMAIL}: its API key and the service's addresses are printed once the "
            f"service answers, and kept in {path}."
        )


def _demo_key(path: Path) -> str:
    """The key the file names while it still opens the demo account; else a new key (and the account, at first)."""
    try:
        account = services.get_account(email=DEMO_EMAIL)
    except services.UnknownAccount:
        return services.create_account(email=DEMO_EMAIL, plan_slug="pro", name="Demo")[1]
    kept = _KEY.search(path.read_text()) if path.exists() else None
    live = queries.live_key(key_hash=services.hash_key(kept[0])) if kept else None
    if live is not None and live.account_id == account.pk:
        return kept[0]
    # The file is gone (a new checkout sharing the database) or names a key revoked since.
    return services.issue_key(account=account, name="make run")


def _demo_text(*, base_url: str, plain_key: str) -> str:
    return f"""Demo account {DEMO_EMAIL} on the Pro plan:

    API key:           {plain_key}
    Interactive docs:  {base_url}/docs/
    Admin:             {base_url}/admin/ (a staff login: make superuser)

Try it:

    curl -s -X POST {base_url}/api/v1/courses \\
      -H 'Authorization: Bearer {plain_key}' -H 'Content-Type: application/json' \\
      -d '{{"subject": "Intro to SQL", "addOns": ["assessment"]}}'

Then poll the pollUrl it returns, e.g. {base_url}/api/v1/courses/jobs/<jobId>.
"""


def _write_private(path: Path, text: str) -> None:
    # The file holds a working key: readable by its owner only.
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as demo:
        demo.write(text)
    os.chmod(path, 0o600)  # a file there already keeps its mode otherwise
