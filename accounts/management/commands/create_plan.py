from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Create a plan, or update the plan with this slug."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--credits", type=int, required=True, help="Monthly course credits.")
        parser.add_argument("--unpaid", action="store_true", help="The plan gives no API access.")

    def handle(self, *args, slug, name, credits, unpaid, **options):
        if credits < 0:
            raise CommandError("--credits must be 0 or more")
        plan = services.save_plan(slug=slug, name=name, monthly_course_credits=credits, is_paid=not unpaid)
        self.stdout.write(f"plan={plan.slug} name={plan.name} paid={plan.is_paid} credits={plan.monthly_course_credits}")
