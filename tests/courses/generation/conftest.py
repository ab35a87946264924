import pytest

from tests.support.fake_openai import FakeOpenAI


@pytest.fixture(autouse=True)
def _generation_settings(settings):
    settings.COURSE_GENERATOR = "offline"
    settings.YOUTUBE_API_KEY = ""
    settings.GENERATION_CONCURRENCY = 4


@pytest.fixture
def fake_openai():
    server = FakeOpenAI().start()
    yield server
    server.stop()


@pytest.fixture
def openai_generator(settings, fake_openai):
    """COURSE_GENERATOR=openai against the fake server, with retries that stay fast."""
    settings.COURSE_GENERATOR = "openai"
    settings.OPENAI_BASE_URL = fake_openai.base_url
    settings.OPENAI_API_KEY = "sk-test"
    settings.OPENAI_MODEL = "course-writer-1"
    settings.OPENAI_TIMEOUT_S = 10.0
    settings.OPENAI_MAX_RETRIES = 2
    return fake_openai
