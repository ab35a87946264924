from django.core.management.base import BaseCommand, CommandError

from accounts import services


class Command(BaseCommand):
    help = "Create a plan, or update the plan with this slug."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--credits", type=int, required=True, help="Monthly course credits.")
        paid = parser.add_mutually_exclusive_group()
        paid.add_argument(
            "--paid", dest="is_paid", action="store_true", default=None, help="The plan gives API access."
        )
        paid.add_argument(
            "--unpaid", dest="is_paid", action="store_false", help="The plan gives no API access."
        )
        parser.add_argument(
            "--storage-mb", type=int, default=None, help="Storage for sources, in MB (default: 0, or unchanged)."
        )

    def handle(self, *args, slug, name, credits, is_paid, storage_mb, **options):
        if credits < 0:
            raise CommandError("--credits must be 0 or more")
        if storage_mb is not None and storage_mb < 0:
            raise CommandError("--storage-mb must be 0 or more")
        try:
            plan = services.save_plan(
                slug=slug,
                name=name,
                monthly_course_credits=credits,
                is_paid=is_paid,
                source_storage_mb=storage_mb,
            )
        except services.InvalidInput as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"plan={plan.slug} name={plan.name} paid={plan.is_paid} credits={plan.monthly_course_credits}")
