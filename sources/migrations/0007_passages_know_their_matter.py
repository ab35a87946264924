from django.db import migrations, models

from sources.extraction import matter


def classify_read_sources(apps, schema_editor):
    """Sources read before: each passage classified from what was kept of it (its text, its headings,
    whether any passage before it had a heading), and the source's list of matter made from them."""
    Source = apps.get_model("sources", "Source")
    Passage = apps.get_model("sources", "Passage")
    for source in Source.objects.filter(status="ready").only("pk").iterator():
        passages = list(Passage.objects.filter(source=source).order_by("ordinal").only(
            "pk", "heading_path", "page", "page_end", "text"
        ))
        found, in_front = [], True
        for passage in passages:
            in_front = in_front and not passage.heading_path
            found.append(matter.kind_of(passage.text, passage.heading_path, in_front=in_front))
        for passage, kind in zip(passages, found, strict=True):
            passage.matter = kind or ""
        Passage.objects.bulk_update([passage for passage in passages if passage.matter], ["matter"], batch_size=500)
        Source.objects.filter(pk=source.pk).update(matter=matter.parts(passages, found))


class Migration(migrations.Migration):
    dependencies = [
        ("sources", "0006_web_source_names_without_query"),
    ]

    operations = [
        migrations.AddField(
            model_name="passage",
            name="matter",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
        migrations.AddField(
            model_name="source",
            name="matter",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(classify_read_sources, migrations.RunPython.noop),
    ]
