# A web source given no name is named by its URL without the query or fragment
# (sources.names.name_from_url): the name is shown with every citation of it on the course's
# public page. Those named by their whole URL before are renamed so (a name kept with its scheme in
# capitals, as sent, too); the courses built from them show it so (sources.names.shown_name).

from django.db import migrations

_NAMES_WITHOUT_QUERY = """
UPDATE "sources_source"
SET "name" = left(split_part(split_part("name", '#', 1), '?', 1), 200)
WHERE "url" ~ '[?#]' AND lower("name") = lower(left("url", 200))
"""


class Migration(migrations.Migration):

    dependencies = [
        ("sources", "0005_web_source_schemes_in_lower_case"),
    ]

    operations = [
        migrations.RunSQL(_NAMES_WITHOUT_QUERY, reverse_sql=migrations.RunSQL.noop),
    ]
