from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Create an account with its first API key; the key is printed alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--plan", default="pro", help="Plan slug (default: pro).")
        parser.add_argument("--name", default="")

    def handle(self, *args, email, plan, name, **options):
        try:
            account, plain_key = services.create_account(email=email, plan_slug=plan, name=name)
        except (services.UnknownPlan, ValueError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"Created account {account.email} on plan {account.plan.slug}. API key (shown once):")
        self.stdout.write(plain_key)
