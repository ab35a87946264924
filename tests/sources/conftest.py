import pytest


@pytest.fixture
def sources_storage(settings, tmp_path):
    """Where stored source files land (the temporary MEDIA_ROOT of every test)."""
    return tmp_path / "media" / "sources"
