"""Full-text search over passages, in each source's language: what the next step retrieves and cites."""

from sources import queries
from sources.models import Source
from tests.support import documents
from tests.support.uploads import read

ENGLISH = b"""# Safety handbook

## Ladders

Workers climbing ladders keep three points of contact. A ladder is inspected before each use.

## Chemicals

Chemicals are stored in ventilated cabinets, away from heat. Spills are cleaned at once.
"""


def source(client, data: bytes, name: str) -> Source:
    return Source.objects.get(public_id=read(client, data, name)["id"])


def test_words_are_matched_by_their_stem_in_the_sources_language(api_client):
    handbook = source(api_client, ENGLISH, "safety.md")

    found = queries.search_passages(sources=[handbook], query="inspecting ladder")

    assert [p.heading_path for p in found] == [["Safety handbook", "Ladders"]]
    assert "<b>ladder</b>" in found[0].headline.lower() or "<b>inspected</b>" in found[0].headline


def test_a_match_in_a_heading_ranks_above_one_in_the_text(api_client):
    text = b"# Guide\n\n## Chemicals\n\nKeep them locked.\n\n## Storage\n\nSome chemicals need cold storage.\n"
    guide = source(api_client, text, "guide.md")

    found = queries.search_passages(sources=[guide], query="chemicals")

    assert [p.heading_path[-1] for p in found] == ["Chemicals", "Storage"]
    assert found[0].rank > found[1].rank


def test_each_source_is_searched_in_its_own_language(api_client):
    french = source(api_client, documents.FRENCH_TEXT.encode(), "politique.txt")
    english = source(api_client, ENGLISH, "safety.md")

    # "employé" finds "employés" by its French stem; "stored" finds "stored" by its English one.
    assert [p.source_id for p in queries.search_passages(sources=[french, english], query="employé")] == [french.pk]
    assert [p.source_id for p in queries.search_passages(sources=[french, english], query="stored")] == [english.pk]


def test_web_search_syntax_is_understood_and_hostile_queries_are_just_words(api_client):
    handbook = source(api_client, ENGLISH, "safety.md")

    assert queries.search_passages(sources=[handbook], query='"three points" -chemicals')
    assert queries.search_passages(sources=[handbook], query="ladder -ladder") == []
    for hostile in ("'); DROP TABLE sources_source; --", "&|!:*()", "", "\\", "a" * 5000):
        queries.search_passages(sources=[handbook], query=hostile)
    assert Source.objects.filter(pk=handbook.pk).exists()


def test_only_the_given_sources_are_searched(api_client, stranger_client):
    mine = source(api_client, ENGLISH, "safety.md")
    source(stranger_client, ENGLISH, "safety.md")

    found = queries.search_passages(sources=[mine], query="ladders")

    assert {p.source_id for p in found} == {mine.pk}


def test_a_search_is_two_queries_per_language(api_client, django_assert_num_queries):
    handbook = source(api_client, ENGLISH, "safety.md")

    with django_assert_num_queries(2):  # the ranked passages, then their headlines
        queries.search_passages(sources=[handbook], query="ladder")
