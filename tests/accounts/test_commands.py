import io
import re
import stat
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from accounts import services
from accounts.models import Account, ApiKey, Plan
from tests.support import processes


def run(*args) -> list[str]:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_create_plan_creates_then_updates(db):
    run("create_plan", "team", "--name", "Team", "--credits", "120")
    run("create_plan", "team", "--name", "Team+", "--credits", "150", "--unpaid")

    plan = Plan.objects.get(slug="team")
    assert (plan.name, plan.monthly_course_credits, plan.is_paid) == ("Team+", 150, False)


def test_create_plan_leaves_whether_a_plan_is_paid_as_it_is_unless_told(db):
    # Updating the free plan's credits without --unpaid made it paid: API access for every free account.
    run("create_plan", "free", "--name", "Free", "--credits", "0", "--unpaid")
    run("create_plan", "free", "--name", "Free", "--credits", "1")
    assert Plan.objects.get(slug="free").is_paid is False

    run("create_plan", "free", "--name", "Free", "--credits", "1", "--paid")
    assert Plan.objects.get(slug="free").is_paid is True


def test_create_plan_sets_the_storage_for_sources_and_keeps_it_when_not_given(db):
    run("create_plan", "team", "--name", "Team", "--credits", "120", "--storage-mb", "500")
    run("create_plan", "team", "--name", "Team", "--credits", "130")

    assert Plan.objects.get(slug="team").source_storage_mb == 500


def test_create_account_defaults_to_pro_and_prints_the_key_last(db):
    lines = run("create_account", "New@Example.com", "--name", "New Co")

    account = Account.objects.get(email="New@Example.com")
    assert account.plan.slug == "pro" and account.name == "New Co"
    assert lines[-1].startswith("cgs_") and len(lines[-1]) == 44
    assert services.authenticate_key(plain_key=lines[-1]).account == account


def test_create_account_on_another_plan(db):
    run("create_account", "biz@example.com", "--plan", "business")

    assert Account.objects.get(email="biz@example.com").plan.slug == "business"


def test_issue_key_prints_a_second_working_key(db):
    first = run("create_account", "two@example.com")[-1]

    second = run("issue_key", "TWO@example.com", "--name", "rotation")[-1]

    assert second != first
    assert services.authenticate_key(plain_key=second).name == "rotation"
    assert services.authenticate_key(plain_key=first)


def demo_key(demo_file) -> str:
    [key] = re.findall(r"API key: +(\S+)", demo_file.read_text())
    return key


def test_seed_demo_writes_the_demo_key_and_the_addresses_to_a_file_only_its_owner_reads(db, tmp_path):
    demo_file = tmp_path / "build" / "demo.txt"

    [said] = run("seed_demo", "--port", "8001", "--file", str(demo_file))

    text = demo_file.read_text()
    key = services.authenticate_key(plain_key=demo_key(demo_file))
    assert (key.account.email, key.account.plan.slug) == ("demo@example.com", "pro")
    assert "http://localhost:8001/docs/" in text
    assert "http://localhost:8001/admin/" in text and "make superuser" in text
    assert f"Authorization: Bearer {demo_key(demo_file)}" in text
    assert stat.S_IMODE(demo_file.stat().st_mode) == 0o600
    assert str(demo_file) in said


def test_seed_demo_keeps_the_key_it_wrote_while_it_works(db, tmp_path):
    demo_file = tmp_path / "demo.txt"
    run("seed_demo", "--file", str(demo_file))
    first = demo_key(demo_file)

    run("seed_demo", "--port", "8002", "--file", str(demo_file))

    assert demo_key(demo_file) == first
    assert "http://localhost:8002/docs/" in demo_file.read_text()
    assert ApiKey.objects.filter(account__email="demo@example.com").count() == 1


@pytest.mark.parametrize("lost", ["file deleted", "key revoked"])
def test_seed_demo_issues_a_new_key_when_the_one_it_wrote_is_lost(db, tmp_path, lost):
    # A second checkout shares the database, not the file; or staff revoked the key.
    demo_file = tmp_path / "demo.txt"
    run("seed_demo", "--file", str(demo_file))
    first = demo_key(demo_file)
    if lost == "file deleted":
        demo_file.unlink()
    else:
        services.revoke_key(key_or_prefix=first)

    run("seed_demo", "--file", str(demo_file))

    assert demo_key(demo_file) != first
    assert services.authenticate_key(plain_key=demo_key(demo_file)).account.email == "demo@example.com"


def test_revoke_key_by_whole_key_and_by_prefix(db):
    first = run("create_account", "rev@example.com")[-1]
    second = run("issue_key", "rev@example.com")[-1]

    run("revoke_key", first)
    run("revoke_key", second[:12])

    assert ApiKey.objects.filter(account__email="rev@example.com", revoked_at__isnull=True).count() == 0
    with pytest.raises(services.InvalidApiKey):
        services.authenticate_key(plain_key=second)


def test_set_plan_and_usage(db):
    run("create_account", "use@example.com", "--plan", "starter")
    services.charge_credit(account=services.get_account(email="use@example.com"))

    run("set_plan", "use@example.com", "pro")
    [line] = run("usage", "use@example.com")

    period = services.billing_period_date()
    assert line == f"plan=pro period={period:%Y-%m} used=1 left=49"


@pytest.mark.parametrize(
    "args, message",
    [
        (("issue_key", "nobody@example.com"), "Unknown account: nobody@example.com"),
        (("usage", "nobody@example.com"), "Unknown account: nobody@example.com"),
        (("set_plan", "nobody@example.com", "pro"), "Unknown account: nobody@example.com"),
        (("create_account", "x@example.com", "--plan", "platinum"), "Unknown plan: platinum"),
        (("revoke_key", "cgs_nothing"), "No such key"),
    ],
)
def test_errors_exit_non_zero_with_one_line(db, args, message):
    with pytest.raises(CommandError) as error:
        call_command(*args)

    assert str(error.value) == message


@pytest.mark.parametrize(
    "args, message",
    [
        (("create_plan", "team", "--name", "N" * 101, "--credits", "1"), "name: Ensure this value has at most 100"),
        (("create_plan", "team", "--name", "Team", "--credits", str(2**31)), "monthly_course_credits: Ensure"),
        (("create_plan", "team", "--name", "T", "--credits", "1", "--storage-mb", str(2**31)), "source_storage_mb"),
        (("create_plan", "Team Plan!", "--name", "Team", "--credits", "1"), "slug: Enter a valid “slug”"),
        (("create_account", "not-an-email"), "email: Enter a valid email address."),
        (("create_account", ""), "email: This field cannot be blank."),
        (("create_account", "a" * 250 + "@example.com"), "email: "),
        (("create_account", "long@example.com", "--name", "N" * 201), "name: Ensure this value has at most 200"),
        (("issue_key", "keys@example.com", "--name", "N" * 101), "name: Ensure this value has at most 100"),
    ],
)
def test_values_the_models_refuse_are_errors_with_one_line_and_store_nothing(db, args, message):
    # They were tracebacks from the database, or stored as given (an account with no email).
    run("create_account", "keys@example.com")

    with pytest.raises(CommandError) as error:
        call_command(*args)

    assert str(error.value).startswith(message) and "\n" not in str(error.value)
    assert Account.objects.count() == 1 and ApiKey.objects.count() == 1
    assert not Plan.objects.filter(slug__in=["team", "Team Plan!"]).exists()


def test_an_email_is_stored_and_looked_up_without_spaces_around_it(db):
    run("create_account", "  spaced@example.com ")

    assert run("usage", "spaced@example.com")[0].startswith("plan=pro")
    assert run("usage", " spaced@example.com  ")[0].startswith("plan=pro")


def test_an_email_names_the_account_whose_address_it_is_whatever_the_case(db):
    # LATIN SMALL LETTER LONG S: upper case makes it "S", lower case keeps it. The unique index
    # compares lower case, so these are two accounts; the lookup compared upper case, and found
    # both (a crash) or the other one (a key issued to another customer).
    run("create_account", "\u017fam@example.com")

    with pytest.raises(CommandError, match=r"Unknown account: sam@example\.com"):
        call_command("issue_key", "sam@example.com")

    run("create_account", "sam@example.com")
    run("issue_key", "SAM@example.com")
    assert ApiKey.objects.filter(account__email="sam@example.com").count() == 2


def test_set_plan_to_unknown_plan_fails(db):
    run("create_account", "plan@example.com")

    with pytest.raises(CommandError, match="Unknown plan: gold"):
        call_command("set_plan", "plan@example.com", "gold")


def test_duplicate_account_is_refused(db):
    run("create_account", "dup@example.com")

    with pytest.raises(CommandError, match="exists already"):
        call_command("create_account", "DUP@example.com")


def test_commands_exit_non_zero_from_the_shell(db):
    result = subprocess.run(
        [sys.executable, "manage.py", "usage", "nobody@example.com"],
        capture_output=True,
        text=True,
        timeout=60,
        env=processes.environment(),
    )

    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1] == "CommandError: Unknown account: nobody@example.com"
