from django.db import migrations

from sources.extraction import matter


def classify_again(apps, schema_editor):
    """Sources read before: each passage classified again, a document without headings having no front
    (every passage of one was taken for its title page), and the source's list of matter made anew."""
    Source = apps.get_model("sources", "Source")
    Passage = apps.get_model("sources", "Passage")
    for source in Source.objects.filter(status="ready").only("pk").iterator():
        passages = list(Passage.objects.filter(source=source).order_by("ordinal").only(
            "pk", "heading_path", "page", "page_end", "text", "matter"
        ))
        found = [
            matter.kind_of(passage.text, passage.heading_path, in_front=in_front)
            for passage, in_front in zip(passages, matter.front(passages), strict=True)
        ]
        changed = []
        for passage, kind in zip(passages, found, strict=True):
            if passage.matter != (kind or ""):
                passage.matter = kind or ""
                changed.append(passage)
        Passage.objects.bulk_update(changed, ["matter"], batch_size=500)
        Source.objects.filter(pk=source.pk).update(matter=matter.parts(passages, found))


class Migration(migrations.Migration):
    dependencies = [
        ("sources", "0007_passages_know_their_matter"),
    ]

    operations = [
        migrations.RunPython(classify_again, migrations.RunPython.noop),
    ]
