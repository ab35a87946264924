import re

import pytest
from django.contrib.auth.models import Permission, User
from django.contrib.messages.storage.cookie import MessageSerializer
from django.core import signing
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import services
from accounts.models import Account, ApiKey
from core import redaction
from exports.models import Export
from learners import services as learner_services
from sources import services as source_services
from tests.support.factories import (
    AccountFactory,
    CourseFactory,
    ExportFactory,
    GenerationJobFactory,
    SignoffFactory,
)


def test_account_page_shows_plan_and_credits_never_the_hash(staff_client, account, plain_key):
    services.charge_credit(account=account)

    page = staff_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()
    listing = staff_client.get("/admin/accounts/account/").content.decode()

    key = ApiKey.objects.get(account=account)
    assert key.prefix in page
    assert key.key_hash not in page and plain_key not in page
    assert "credits used this month" in listing.lower()
    assert re.search(r">\s*1\s*<", listing) and re.search(r">\s*49\s*<", listing)


def secrets_in_cookies(response) -> list[str]:
    """The cookies the answer sets whose value, as sent or as Django's message storage reads it, holds a secret."""
    found = []
    for name, morsel in response.cookies.items():
        try:
            value = str(signing.get_cookie_signer(salt="django.contrib.messages").unsign_object(
                morsel.value, serializer=MessageSerializer
            ))
        except signing.BadSignature:
            value = morsel.value
        if "cgs_" in value or "whsec_" in value:
            found.append(name)
    return found


def key_form(account) -> dict:
    return {
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


def test_adding_a_key_inline_shows_the_raw_key_once(staff_client, account):
    response = staff_client.post(f"/admin/accounts/account/{account.pk}/change/", key_form(account), follow=True)
    again = staff_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()

    [plain_key] = re.findall(r"cgs_[A-Za-z0-9]{40}", response.content.decode())
    assert services.authenticate_key(plain_key=plain_key).name == "from admin"
    assert plain_key not in again


def test_a_new_key_is_in_the_answer_to_the_post_and_in_no_cookie(staff_client, account):
    response = staff_client.post(f"/admin/accounts/account/{account.pk}/change/", key_form(account))

    page = response.content.decode()
    [plain_key] = re.findall(r"cgs_[A-Za-z0-9]{40}", page)
    assert response.status_code == 200 and page.count(plain_key) == 1
    assert services.authenticate_key(plain_key=plain_key).name == "from admin"
    assert "messages" not in response.cookies
    assert secrets_in_cookies(response) == []


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


def test_the_list_of_accounts_costs_the_same_queries_for_3_accounts_as_for_30(staff_client):
    def queries_to_list(accounts: int) -> int:
        for account in AccountFactory.create_batch(accounts - Account.objects.count()):
            services.charge_credit(account=account)
        with CaptureQueriesContext(connection) as listing:
            assert staff_client.get("/admin/accounts/account/").status_code == 200
        return len(listing.captured_queries)

    assert queries_to_list(3) == queries_to_list(30)


@pytest.mark.parametrize(
    "model",
    ["courses/course", "courses/courseversion", "exports/export", "learners/signoff", "learners/learner"],
)
def test_lists_never_read_course_documents_and_pages_still_show(staff_client, api_key, model):
    course = CourseFactory(api_key=api_key)
    version = course.versions.get()
    export = ExportFactory(course=course)
    signoff = SignoffFactory(course=course)
    learner, _ = learner_services.add_learner(
        api_key=api_key, course_public_id=course.public_id, external_id="E-1"
    )
    shown = {"courses/course": course, "courses/courseversion": version, "exports/export": export,
             "learners/signoff": signoff, "learners/learner": learner}[model]

    with CaptureQueriesContext(connection) as listing:
        listed = staff_client.get(f"/admin/{model}/")
    documents_read = [query["sql"] for query in listing.captured_queries if '"content"' in query["sql"]]
    page = staff_client.get(f"/admin/{model}/{shown.pk}/change/")  # the log of queries starts again

    assert listed.status_code == page.status_code == 200
    assert documents_read == []


@pytest.mark.parametrize(
    "model, field",
    [
        ("learners/learner", "created_at"),  # a date hierarchy
        ("learners/signoff", "signed_at"),
        ("webhooks/webhookevent", "created_at"),
        ("learners/learner", "started_at"),  # a lookup of the query string only
        ("accounts/account", "created_at"),
        ("webhooks/webhookattempt", "started_at"),
        ("sources/source", "created_at"),
    ],
)
@pytest.mark.parametrize("year", ["10000", "9" * 20])
def test_a_year_past_the_calendar_is_an_invalid_filter_not_an_error(staff_client, model, field, year):
    listed = staff_client.get(f"/admin/{model}/?{field}__year={year}")

    assert listed.status_code == 302
    assert listed.headers["Location"].endswith("?e=1")


@pytest.mark.parametrize(
    "model, field",
    [
        ("learners/learner", "created_at"),
        ("learners/signoff", "signed_at"),
        ("webhooks/webhookevent", "created_at"),
    ],
)
def test_a_date_hierarchy_in_the_calendars_last_year_is_an_invalid_filter(staff_client, model, field):
    listed = staff_client.get(f"/admin/{model}/?{field}__year=9999")  # it cannot go on to the next year

    assert listed.status_code == 302


@pytest.mark.parametrize(
    "lookup",
    [
        "/admin/accounts/account/?webhook_secret__startswith={secret}",
        "/admin/accounts/account/?webhook_secret={secret}",
        "/admin/accounts/apikey/?key_hash__startswith={key_hash}",
        "/admin/accounts/apikey/?account__webhook_secret__startswith={secret}",
        "/admin/webhooks/webhookevent/?account__webhook_secret__startswith={secret}",
    ],
)
def test_no_list_is_filtered_by_a_secret(staff_client, account, api_key, lookup):
    # The count of what a filter matches would tell a secret character by character.
    url = lookup.format(secret=account.webhook_secret[:8], key_hash=api_key.key_hash[:5])

    listed = staff_client.get(url)

    assert listed.status_code == 400
    assert account.webhook_secret[:8] not in listed.content.decode()


@pytest.fixture
def viewer_client(client, db):
    """Staff who may only view courses, their exports and sign-offs, and learners."""
    viewer = User.objects.create_user("viewer", "viewer@example.com", "a-long-viewer-password", is_staff=True)
    viewer.user_permissions.add(*Permission.objects.filter(
        codename__in=["view_course", "view_export", "view_signoff", "view_learner"]
    ))
    client.login(username="viewer", password="a-long-viewer-password")
    return client


@pytest.mark.parametrize(
    "lookup",
    [
        "/admin/learners/signoff/?public_id__startswith={signoff}",
        "/admin/learners/signoff/?public_id__gte={signoff}",
        "/admin/courses/course/?signoffs__public_id__startswith={signoff}",
        "/admin/learners/learner/?signoffs__public_id__startswith={signoff}",
        "/admin/exports/export/?public_id__startswith={export}",
        "/admin/exports/export/?public_id__in={export}",
        "/admin/exports/export/?file__contains={export}",
        "/admin/courses/course/?exports__public_id__startswith={export}",
    ],
)
def test_no_list_is_filtered_by_a_links_id_even_for_staff_who_may_only_view(
    viewer_client, api_client, api_key, lookup
):
    # A sign-off's confirmation page shows the signer's name to whoever has its address, and a
    # download link, the export's id, needs no key.
    course = CourseFactory(api_key=api_key)
    signoff = SignoffFactory(course=course, name="Grace Hopper")
    export_id = api_client.post(
        f"/api/v1/courses/{course.public_id}/export", {"format": "scorm12"}, format="json"
    ).json()["exportId"]
    assert viewer_client.get("/admin/learners/signoff/").status_code == 200

    listed = viewer_client.get(lookup.format(signoff=signoff.public_id[:6], export=export_id[:6]))

    assert listed.status_code == 400
    assert "Grace Hopper" not in listed.content.decode()
    assert "1 export" not in listed.content.decode()


@pytest.mark.parametrize(
    "model, url_fields",
    [
        ("courses/generationjob", ["callback_url", "learner_callback_url"]),
        ("courses/course", ["learner_callback_url"]),
        ("exports/export", ["callback_url"]),
        ("sources/source", ["callback_url"]),
    ],
)
def test_pages_show_callback_urls_redacted_and_no_list_is_filtered_by_one(
    staff_client, api_client, api_key, model, url_fields
):
    # Receivers take a token in the URL: whoever has it can post them events.
    callback = "https://hooks.example.com/cgs/hook?token=hook-s3cret"
    shown = {
        "courses/generationjob": lambda: GenerationJobFactory(
            api_key=api_key, callback_url=callback, learner_callback_url=callback
        ),
        "courses/course": lambda: CourseFactory(api_key=api_key, learner_callback_url=callback),
        "exports/export": lambda: Export.objects.get(public_id=api_client.post(
            f"/api/v1/courses/{CourseFactory(api_key=api_key).public_id}/export",
            {"format": "scorm12", "callbackUrl": callback},
            format="json",
        ).json()["exportId"]),
        "sources/source": lambda: source_services.create_source_from_url(
            api_key=api_key, url="https://docs.example.com/handbook", name="Handbook", callback_url=callback
        ),
    }[model]()

    page = staff_client.get(f"/admin/{model}/{shown.pk}/change/").content.decode()
    filtered = [staff_client.get(f"/admin/{model}/?{field}__contains=s3") for field in url_fields]

    assert "s3cret" not in page
    assert page.count("https://hooks.example.com/cgs/hook?…") == len(url_fields)
    assert [response.status_code for response in filtered] == [400] * len(url_fields)


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://hooks.example.com/cgs?token=s3cret", "https://hooks.example.com/cgs?…"),
        ("https://user:s3cret@hooks.example.com:8443/cgs#s3cret", "https://hooks.example.com:8443/cgs#…"),
        ("http://[2001:db8::1]/cgs?", "http://[2001:db8::1]/cgs"),
        ("https://s.example/downloads/exp_AbCdEfGhIjKlMnOpQrStUv", "https://s.example/downloads/exp_AbCd…"),
        (
            "https://s.example/go/cou_1/signed/sig_AbCdEfGhIjKlMnOpQrStUv?a",
            "https://s.example/go/cou_1/signed/sig_AbCd…?…",
        ),
        ("http://[2001:db8::1/cgs?token=s3cret", "(a URL that cannot be read)"),
    ],
)
def test_the_admin_shows_a_url_without_what_opens_it(url, shown):
    assert redaction.redacted_url(url) == shown


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


def test_a_user_name_spelt_in_look_alike_characters_counts_as_the_same_account(client, db, time_machine):
    User.objects.create_superuser("ada", "ada@example.com", "right horse battery staple")
    time_machine.move_to("2026-05-01T10:00:05Z", tick=False)
    # Each of these is "ada" once Django's login form has put it in its standard form (NFKC).
    spellings = ["ada", "\uff41da", "\U0001d41a\U0001d41d\U0001d41a", "a\uff44a", "ad\uff41"]

    guesses = [login(client, spellings[n % 5], f"guess {n}", f"203.0.113.{n}").status_code for n in range(10)]
    look_alike_now = login(client, "\uff41\uff44\uff41", "right horse battery staple", "198.51.100.1")

    assert guesses == [200] * 10
    assert look_alike_now.status_code == 403


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


def test_the_admin_never_shows_a_webhook_signing_secret_and_rotating_shows_the_new_one_once(
    staff_client, account
):
    old_secret = account.webhook_secret

    page = staff_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()
    rotated = staff_client.post(
        "/admin/accounts/account/",
        {"action": "rotate_webhook_secret", "_selected_action": [account.pk]},
        follow=True,
    ).content.decode()
    later = staff_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()

    account.refresh_from_db()
    assert old_secret not in page and "set (hidden)" in page
    assert account.webhook_secret != old_secret and account.webhook_secret in rotated
    assert account.webhook_secret not in later and old_secret not in later


def test_a_rotated_webhook_secret_is_in_the_answer_to_the_post_and_in_no_cookie(staff_client, account):
    response = staff_client.post(
        "/admin/accounts/account/", {"action": "rotate_webhook_secret", "_selected_action": [account.pk]}
    )

    account.refresh_from_db()
    page = response.content.decode()
    assert response.status_code == 200 and page.count(account.webhook_secret) == 1
    assert "messages" not in response.cookies
    assert secrets_in_cookies(response) == []
