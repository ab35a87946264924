import pytest

from accounts import services as account_services
from accounts.models import ApiKey
from tests.support.factories import CourseFactory
from tests.support.readers import Reader


@pytest.fixture
def course(api_key):
    """A classic course with every add-on, of the test's key: pages 0 (overview), 1-3, 4 (closing)."""
    return CourseFactory(format="classic", api_key=api_key)


@pytest.fixture
def reader(course):
    return Reader(course)


@pytest.fixture
def other_key(account) -> ApiKey:
    """Another key of the same account: it sees none of the first key's courses."""
    plain = account_services.issue_key(account=account, name="other")
    return ApiKey.objects.get(key_hash=account_services.hash_key(plain))
