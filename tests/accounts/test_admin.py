import re

import pytest
from django.contrib.auth.models import Permission, User

from accounts import services
from accounts.models import ApiKey
from tests.factories import CourseFactory


@pytest.fixture
def staff_client(client, db):
    User.objects.create_superuser("staff", "staff@example.com", "a-long-admin-password")
    client.login(username="staff", password="a-long-admin-password")
    return client


def test_account_page_shows_plan_and_credits_never_the_hash(staff_client, account, plain_key):
    services.charge_credit(account=account)

    page = staff_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()
    listing = staff_client.get("/admin/accounts/account/").content.decode()

    key = ApiKey.objects.get(account=account)
    assert key.prefix in page
    assert key.key_hash not in page and plain_key not in page
    assert "credits used this month" in listing.lower()
    assert re.search(r">\s*1\s*<", listing) and re.search(r">\s*49\s*<", listing)


def test_adding_a_key_inline_shows_the_raw_key_once(staff_client, account):
    form = {
        "email": account.email,
        "name": account.name,
        "plan": account.plan.pk,
        "api_keys-TOTAL_FORMS": "1",
        "api_keys-INITIAL_FORMS": "0",
        "api_keys-MIN_NUM_FORMS": "0",
        "api_keys-MAX_NUM_FORMS": "1000",
        "api_keys-0-name": "from admin",
        "api_keys-0-account": account.pk,
    }

    response = staff_client.post(f"/admin/accounts/account/{account.pk}/change/", form, follow=True)
    again = staff_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()

    [plain_key] = re.findall(r"cgs_[A-Za-z0-9]{40}", response.content.decode())
    assert services.authenticate_key(plain_key=plain_key).name == "from admin"
    assert plain_key not in again


def test_revoke_action(staff_client, account, plain_key):
    key = ApiKey.objects.get(account=account)

    staff_client.post("/admin/accounts/apikey/", {"action": "revoke", "_selected_action": [key.pk]})

    key.refresh_from_db()
    assert key.revoked_at is not None


def test_staff_who_may_only_view_keys_cannot_revoke_one(client, account, plain_key):
    viewer = User.objects.create_user("viewer", "viewer@example.com", "a-long-viewer-password", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_apikey"))
    client.login(username="viewer", password="a-long-viewer-password")
    key = ApiKey.objects.get(account=account)
    assert client.get("/admin/accounts/apikey/").status_code == 200

    client.post("/admin/accounts/apikey/", {"action": "revoke", "_selected_action": [key.pk]})

    key.refresh_from_db()
    assert key.revoked_at is None


def test_jobs_and_courses_are_read_only_with_a_preview_link(staff_client, db):
    course = CourseFactory()

    page = staff_client.get(f"/admin/courses/course/{course.pk}/change/").content.decode()
    add_page = staff_client.get("/admin/courses/generationjob/add/")

    assert course.share_url in page
    assert add_page.status_code == 403


def login(client, username: str, password: str, address: str):
    return client.post("/admin/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def test_guessing_one_staff_password_from_many_addresses_is_slowed_per_account(client, db, time_machine):
    User.objects.create_superuser("ada", "ada@example.com", "right horse battery staple")
    User.objects.create_superuser("grace", "grace@example.com", "another long passphrase")
    time_machine.move_to("2026-05-01T10:00:05Z", tick=False)  # all inside one fixed window

    guesses = [login(client, " ADA", f"guess {n}", f"203.0.113.{n}").status_code for n in range(10)]
    right_password_now = login(client, "ada", "right horse battery staple", "198.51.100.1")
    other_account = login(client, "grace", "another long passphrase", "198.51.100.2")
    time_machine.move_to("2026-05-01T10:16:05Z", tick=False)  # the account's 15-minute window has passed
    right_password_later = login(client, "ada", "right horse battery staple", "198.51.100.3")

    assert guesses == [200] * 10  # the form again: wrong password
    assert right_password_now.status_code == 403
    assert other_account.status_code == 302
    assert right_password_later.status_code == 302


def test_successful_logins_do_not_count_against_the_account(client, db, time_machine):
    User.objects.create_superuser("ada", "ada@example.com", "right horse battery staple")
    time_machine.move_to("2026-05-01T10:00:05Z", tick=False)

    statuses = [
        login(client, "ada", "right horse battery staple", f"203.0.113.{n}").status_code for n in range(12)
    ]

    assert statuses == [302] * 12


def test_admin_login_is_rate_limited_per_ip(client, db, time_machine):
    time_machine.move_to("2026-05-01T10:00:05Z", tick=False)  # all inside one fixed window
    # A different user name each time: the limit per account stays out of the way.
    statuses = [login(client, f"user{n}", "wrong", "203.0.113.9").status_code for n in range(12)]
    other_ip = login(client, "user12", "wrong", "203.0.113.10")

    assert statuses[:10] == [200] * 10
    assert statuses[10:] == [403, 403]
    assert other_ip.status_code == 200
