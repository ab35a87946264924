from django.db import migrations

PLANS = [
    # slug, name, is_paid, monthly course credits
    ("free", "Free", False, 0),
    ("starter", "Starter", True, 10),
    ("pro", "Pro", True, 50),
    ("business", "Business", True, 250),
]


def seed_plans(apps, schema_editor):
    Plan = apps.get_model("accounts", "Plan")
    for slug, name, is_paid, credits in PLANS:
        Plan.objects.get_or_create(
            slug=slug, defaults={"name": name, "is_paid": is_paid, "monthly_course_credits": credits}
        )


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(seed_plans, migrations.RunPython.noop)]
