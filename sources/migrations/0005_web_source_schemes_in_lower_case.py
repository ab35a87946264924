# A web source's URL is kept with its scheme in lower case (sources.services.lower_case_scheme), as a
# course's document writes it; those kept as a client sent them (`HTTPS://…`) are written so.

from django.db import migrations

_LOWER_CASE_SCHEMES = """
UPDATE "sources_source"
SET "url" = lower(split_part("url", '://', 1)) || substr("url", length(split_part("url", '://', 1)) + 1)
WHERE "url" ~ '^[A-Za-z]*[A-Z][A-Za-z]*://'
"""


class Migration(migrations.Migration):

    dependencies = [
        ("sources", "0004_passage_embedding"),
    ]

    operations = [
        migrations.RunSQL(_LOWER_CASE_SCHEMES, reverse_sql=migrations.RunSQL.noop),
    ]
