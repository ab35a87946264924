"""
Real documents nobody here wrote, read as a client's uploads: manuals Debian ships with its packages
(`make test` copies them into build/corpus/, scripts/corpus.sh).
"""

from pathlib import Path

import pytest

from tests.support.uploads import read

CORPUS = Path(__file__).resolve().parents[2] / "build" / "corpus"


@pytest.mark.parametrize(
    ("file_name", "title"),
    [
        # Typeset by DocBook's tools: no title in the metadata, the title running atop every page.
        ("shared-mime-info-spec.pdf", "Shared MIME-info Database"),
        # Typeset by Texinfo: a title page, then numbered chapters, each bookmarked.
        ("libtasn1.pdf", "Libtasn1"),
    ],
)
def test_a_manual_is_titled_as_its_title_page_says_not_by_its_first_chapter(api_client, file_name, title):
    source = read(api_client, (CORPUS / file_name).read_bytes(), file_name)

    assert (source["status"], source["title"]) == ("ready", title)
