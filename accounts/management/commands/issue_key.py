from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Issue another API key for an account; the key is printed alone on the last line."

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--name", default="")

    def handle(self, *args, email, name, **options):
        try:
            account = services.get_account(email=email)
            plain_key = services.issue_key(account=account, name=name)
        except (services.UnknownAccount, services.InvalidInput) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"New API key for {account.email} (shown once):")
        self.stdout.write(plain_key)
