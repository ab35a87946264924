from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Print an account's course credits this billing period: plan=… period=YYYY-MM used=… left=…"

    def add_arguments(self, parser):
        parser.add_argument("email")

    def handle(self, *args, email, **options):
        try:
            usage = services.usage_for(account=services.get_account(email=email))
        except services.UnknownAccount as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(
            f"plan={usage.plan_slug} period={usage.period_date:%Y-%m} used={usage.used} left={usage.left}"
        )
