from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Move an account to another plan; it applies from the next request."

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("plan", help="Plan slug.")

    def handle(self, *args, email, plan, **options):
        try:
            account = services.set_plan(account=services.get_account(email=email), plan_slug=plan)
        except (services.UnknownAccount, services.UnknownPlan) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{account.email} is now on plan {account.plan.slug}")
