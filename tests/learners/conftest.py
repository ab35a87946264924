import pytest

from accounts import services as account_services
from accounts.models import ApiKey
from tests.support.readers import Reader


@pytest.fixture
def reader(course):
    return Reader(course)


@pytest.fixture
def other_key(account) -> ApiKey:
    """Another key of the same account: it sees none of the first key's courses."""
    plain = account_services.issue_key(account=account, name="other")
    return ApiKey.objects.get(key_hash=account_services.hash_key(plain))
