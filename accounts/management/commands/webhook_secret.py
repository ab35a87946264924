from django.core.management.base import BaseCommand, CommandError

from accounts import services as account_services


class Command(BaseCommand):
    help = (
        "Print the secret that signs an account's webhooks, alone on the last line; "
        "--rotate replaces it first (the old one stops verifying at once)."
    )

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--rotate", action="store_true", help="Replace the secret with a new one.")

    def handle(self, *args, email, rotate, **options):
        try:
            account = account_services.get_account(email=email)
        except account_services.UnknownAccount as exc:
            raise CommandError(str(exc)) from None
        if rotate:
            account_services.rotate_webhook_secret(account=account)
            self.stdout.write(f"New webhook secret for {account.email}; receivers need it now:")
        self.stdout.write(account.webhook_secret)
