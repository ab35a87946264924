from django.core.management.base import BaseCommand

from accounts import services

DEMO_EMAIL = "demo@example.com"


class Command(BaseCommand):
    help = "Create the demo paid account on first run and print its API key with a curl example."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, port, **options):
        base_url = f"http://localhost:{port}"
        try:
            services.get_account(email=DEMO_EMAIL)
        except services.UnknownAccount:
            pass
        else:
            self.stdout.write(
                f"Demo account {DEMO_EMAIL} exists (its key was printed on first run). "
                f"Another key: .venv/bin/python manage.py issue_key {DEMO_EMAIL}"
            )
            return
        _, plain_key = services.create_account(email=DEMO_EMAIL, plan_slug="pro", name="Demo")
        self.stdout.write(
            f"""
Demo account {DEMO_EMAIL} on the Pro plan. Its API key, shown only this once:

    {plain_key}

Try it:

    curl -s -X POST {base_url}/api/v1/courses \\
      -H 'Authorization: Bearer {plain_key}' -H 'Content-Type: application/json' \\
      -d '{{"subject": "Intro to SQL", "addOns": ["assessment"]}}'

Then poll the pollUrl it returns, e.g. {base_url}/api/v1/courses/jobs/<jobId>.
"""
        )
