"""Sources read before passages knew their matter are classified by the migrations that add it and mend it."""

from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from sources.models import Passage, Source
from tests.support.uploads import read

CORPUS = Path(__file__).resolve().parents[2] / "build" / "corpus"
NAME = ("sources", "0007_passages_know_their_matter")
BEFORE = ("sources", "0006_web_source_names_without_query")


@pytest.mark.django_db(transaction=True)
def test_a_source_read_before_gets_the_matter_a_reading_now_finds(api_client):
    source = read(api_client, (CORPUS / "libtasn1.pdf").read_bytes(), "libtasn1.pdf")
    read_now = list(Passage.objects.filter(source__public_id=source["id"]).values_list("ordinal", "matter"))

    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        MigrationExecutor(connection).migrate([NAME])
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())

    assert list(Passage.objects.filter(source__public_id=source["id"]).values_list("ordinal", "matter")) == read_now
    assert Source.objects.get(public_id=source["id"]).matter == source["matter"]
    assert {kind for _, kind in read_now} >= {"", "contents", "licence", "index"}


@pytest.mark.django_db(transaction=True)
def test_a_source_without_headings_taken_whole_for_a_title_page_is_body_again(api_client):
    text = "\n\n".join(f"Paragraph {n}: every team keeps its records for ten years, then shreds them." for n in range(200))
    source = read(api_client, text.encode(), "notes.txt")
    # What the first classification made of it: every passage came before the (missing) first heading.
    Passage.objects.filter(source__public_id=source["id"]).update(matter="title-page")
    Source.objects.filter(public_id=source["id"]).update(matter=[{"kind": "title-page", "title": "Title page"}])

    executor = MigrationExecutor(connection)
    try:
        executor.migrate([NAME])
        MigrationExecutor(connection).migrate([("sources", "0008_no_front_without_headings")])
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())

    assert set(Passage.objects.filter(source__public_id=source["id"]).values_list("matter", flat=True)) == {""}
    assert Source.objects.get(public_id=source["id"]).matter == []
