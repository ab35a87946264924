"""
Every sign-off belongs to a learner. Those recorded from a browser that named no learner (before
the service refused them) kept a typed name that no result showed and no erasure reached. Each is
given a learner of its own, anonymous, who signed then and did nothing else the service knows of:
the client now lists it in the course's results (`signedAt`, `signedName`), erases it, and retention
deletes it as long after its signing as before. They are attached rather than deleted because a
sign-off is the client's compliance record of the agreement: deleting it would lose what the client
may have to show, and whether to keep it is the client's call, which it can now make. No event is
sent for them: a `learner.signed` now, for a sign-off of long ago, would read as news.
"""

from django.db import migrations

BATCH = 500
SIGNED = 4  # learners.events: the sign-off counts as told


def attach_to_learners(apps, schema_editor):
    Learner = apps.get_model("learners", "Learner")
    Signoff = apps.get_model("learners", "Signoff")
    while True:
        orphans = list(Signoff.objects.filter(learner=None).order_by("pk")[:BATCH])
        if not orphans:
            return
        learners = Learner.objects.bulk_create(
            [
                Learner(
                    course_id=signoff.course_id,
                    created_at=signoff.signed_at,
                    updated_at=signoff.signed_at,  # retention counts from the signing, as it did
                    last_seen_at=signoff.signed_at,
                    signed_at=signoff.signed_at,
                    signed_name=signoff.name,
                    notified=SIGNED,
                )
                for signoff in orphans
            ]
        )
        for signoff, learner in zip(orphans, learners, strict=True):
            signoff.learner_id = learner.pk
        Signoff.objects.bulk_update(orphans, ["learner"])


class Migration(migrations.Migration):
    dependencies = [
        ("learners", "0005_signoffs_move_here"),
    ]

    operations = [
        # Going back keeps the learners given: older code reads a sign-off with its learner as well.
        migrations.RunPython(attach_to_learners, migrations.RunPython.noop),
    ]
