"""Accounts, plans, API keys and course credits: every write and rule about them lives here."""

import datetime
import hashlib
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import F, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Lower
from django.utils import timezone

from accounts import queries
from accounts.models import Account, ApiKey, Plan, UsagePeriod, new_webhook_secret
from core import errors
from core.ids import random_base62

KEY_PREFIX = "cgs_"
KEY_RANDOM_LENGTH = 40
DISPLAY_PREFIX_LENGTH = 12  # "cgs_" and 8 random characters
LAST_USED_RESOLUTION = datetime.timedelta(minutes=1)


class InvalidApiKey(errors.AppError):
    status, code, message = 401, "INVALID_API_KEY", "Missing or invalid API key."


class PaidPlanRequired(errors.AppError):
    status, code, message = 403, "PAID_PLAN_REQUIRED", "This API requires a paid plan."


class CreditsExhausted(errors.AppError):
    status, code = 403, "USAGE_LIMIT_EXCEEDED_PLAN"

    def __init__(self, plan_name: str):
        super().__init__(
            f"Monthly course credits used up for your plan ({plan_name}). "
            "Wait for the next billing period or upgrade your plan."
        )


class UnknownAccount(Exception):
    pass


class UnknownPlan(Exception):
    pass


class UnknownKey(Exception):
    pass


class InvalidInput(ValueError):
    """A value the model would refuse (too long, out of range, not an email or a slug); one line."""


def _check_fields(instance, *names: str) -> None:
    """Apply the model's own rules for these fields, as the admin's forms do. :raises InvalidInput:"""
    excluded = [field.name for field in instance._meta.fields if field.name not in names]
    try:
        instance.clean_fields(exclude=excluded)
    except ValidationError as exc:
        problems = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in exc.message_dict.items())
        raise InvalidInput(problems) from None


def hash_key(plain_key: str) -> str:
    return hashlib.sha256(plain_key.encode()).hexdigest()


# Plans ----------------------------------------------------------------------------------------


def save_plan(
    *, slug: str, name: str, monthly_course_credits: int, is_paid: bool | None = True,
    source_storage_mb: int | None = None,
) -> Plan:
    """
    Create the plan or update the one with this slug. A `None` leaves that field as it is: paid,
    and no storage, for a new plan.
    :raises InvalidInput: if a value does not fit the plan's fields
    """
    fields = {"name": name, "monthly_course_credits": monthly_course_credits}
    if is_paid is not None:
        fields["is_paid"] = is_paid
    if source_storage_mb is not None:
        fields["source_storage_mb"] = source_storage_mb
    _check_fields(Plan(slug=slug, **fields), "slug", *fields)
    plan, _ = Plan.objects.update_or_create(
        slug=slug, defaults=fields, create_defaults={"is_paid": True, **fields}
    )
    return plan


def get_plan(*, slug: str) -> Plan:
    """:raises UnknownPlan: if no plan has this slug"""
    try:
        return Plan.objects.get(slug=slug)
    except Plan.DoesNotExist:
        raise UnknownPlan(f"Unknown plan: {slug}") from None


# Accounts and keys ----------------------------------------------------------------------------


def _email(given: str) -> str:
    """An email address as accounts keep it: without the spaces around it."""
    return given.strip()


def get_account(*, email: str) -> Account:
    """:raises UnknownAccount: if no account has this email"""
    try:
        # Compared as the unique index compares (lower case in the database), so one address names
        # one account: case-insensitive `iexact` compares upper case, which folds more together.
        accounts = Account.objects.select_related("plan").alias(email_lower=Lower("email"))
        return accounts.get(email_lower=Lower(Value(_email(email))))
    except Account.DoesNotExist:
        raise UnknownAccount(f"Unknown account: {email}") from None


@transaction.atomic
def create_account(*, email: str, plan_slug: str = "pro", name: str = "") -> tuple[Account, str]:
    """
    Create an account with its first API key; return both, the key as its plain value.
    :raises UnknownPlan: if the plan does not exist
    :raises InvalidInput: if the email is not one, or the name is too long
    :raises ValueError: if an account with this email exists already
    """
    email = _email(email)
    _check_fields(Account(email=email, name=name), "email", "name")
    plan = get_plan(slug=plan_slug)
    try:
        # The unique index on lower(email) decides, so two concurrent creations cannot both win.
        with transaction.atomic():
            account = Account.objects.create(email=email, name=name, plan=plan)
    except IntegrityError:
        raise ValueError(f"An account with email {email} exists already") from None
    return account, issue_key(account=account, name="default")


def set_plan(*, account: Account, plan_slug: str) -> Account:
    """:raises UnknownPlan: if the plan does not exist"""
    account.plan = get_plan(slug=plan_slug)
    account.save(update_fields=["plan"])
    return account


def issue_key(*, account: Account, name: str = "") -> str:
    """
    Create an API key for the account and return its plain value, which is never stored.
    :raises InvalidInput: if the name is too long
    """
    _check_fields(ApiKey(name=name), "name")
    plain_key = KEY_PREFIX + random_base62(KEY_RANDOM_LENGTH)
    ApiKey.objects.create(
        account=account,
        name=name,
        prefix=plain_key[:DISPLAY_PREFIX_LENGTH],
        key_hash=hash_key(plain_key),
    )
    return plain_key


def revoke_key(*, key_or_prefix: str) -> ApiKey:
    """
    Revoke a key given as its plain value or its display prefix. Revoking twice is harmless.
    :raises UnknownKey: if nothing matches, or a prefix matches more than one key
    """
    if len(key_or_prefix) == len(KEY_PREFIX) + KEY_RANDOM_LENGTH:
        matches = ApiKey.objects.filter(key_hash=hash_key(key_or_prefix))
    else:
        matches = ApiKey.objects.filter(prefix=key_or_prefix)
    keys = list(matches[:2])
    if len(keys) != 1:
        raise UnknownKey("No such key" if not keys else "That prefix matches several keys; give the whole key")
    key = keys[0]
    if key.revoked_at is None:
        key.revoked_at = timezone.now()
        key.save(update_fields=["revoked_at"])
    return key


def rotate_webhook_secret(*, account: Account) -> str:
    """Give the account a new webhook signing secret and return it; the old one stops at once."""
    account.webhook_secret = new_webhook_secret()
    account.save(update_fields=["webhook_secret"])
    return account.webhook_secret


def authenticate_key(*, plain_key: str) -> ApiKey:
    """
    Return the live key with this plain value, its account and plan loaded, and note its use.
    :raises InvalidApiKey: if no live key has this value
    """
    key = queries.live_key(key_hash=hash_key(plain_key))
    if key is None:
        raise InvalidApiKey()
    _note_key_use(key)
    return key


def _note_key_use(key: ApiKey) -> None:
    # At most one write a minute per key: a conditional UPDATE, so concurrent requests don't pile
    # up writes either.
    now = timezone.now()
    if key.last_used_at and now - key.last_used_at < LAST_USED_RESOLUTION:
        return
    ApiKey.objects.filter(pk=key.pk).exclude(last_used_at__gte=now - LAST_USED_RESOLUTION).update(
        last_used_at=now
    )
    key.last_used_at = now


def require_paid_plan(*, account: Account) -> None:
    """:raises PaidPlanRequired: if the account's plan is not a paid one"""
    if not account.plan.is_paid:
        raise PaidPlanRequired()


# Credits --------------------------------------------------------------------------------------


def billing_period_date(moment: datetime.datetime | None = None) -> datetime.date:
    """The first day of the calendar month (UTC) that `moment` (default: now) falls in."""
    moment = (moment or timezone.now()).astimezone(datetime.UTC)
    return moment.date().replace(day=1)


def charge_credit(*, account: Account) -> datetime.date:
    """
    Consume one course credit of the current billing period; return that period. Run it in the
    transaction that saves what the credit pays for, so both are written or neither.
    :raises CreditsExhausted: if the plan's monthly allowance is used up
    """
    allowance = account.plan.monthly_course_credits
    if allowance <= 0:
        raise CreditsExhausted(account.plan.name)
    period = billing_period_date()
    # One statement that counts and checks at once: exact when many requests race for the last
    # credit, and a new month is simply a new row (no reset job).
    table = UsagePeriod._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {table} (account_id, period_date, courses_used)
            VALUES (%s, %s, 1)
            ON CONFLICT (account_id, period_date) DO UPDATE
                SET courses_used = {table}.courses_used + 1
                WHERE {table}.courses_used < %s
            RETURNING courses_used
            """,
            [account.pk, period, allowance],
        )
        if cursor.fetchone() is None:
            raise CreditsExhausted(account.plan.name)
    return period


def refund_credit(*, account_id: int, period_date: datetime.date) -> None:
    """Give back one credit charged in the given billing period (never below zero)."""
    UsagePeriod.objects.filter(account_id=account_id, period_date=period_date, courses_used__gt=0).update(
        courses_used=F("courses_used") - 1
    )


@dataclass(frozen=True)
class Usage:
    plan_slug: str
    plan_name: str
    period_date: datetime.date
    used: int
    allowance: int

    @property
    def left(self) -> int:
        return max(self.allowance - self.used, 0)


def usage_for(*, account: Account) -> Usage:
    period = billing_period_date()
    used = getattr(account, "credits_used_now", None)  # read with with_credits_used
    if used is None:
        row = UsagePeriod.objects.filter(account=account, period_date=period).first()
        used = row.courses_used if row else 0
    return Usage(
        plan_slug=account.plan.slug,
        plan_name=account.plan.name,
        period_date=period,
        used=used,
        allowance=account.plan.monthly_course_credits,
    )


def with_credits_used(accounts: QuerySet) -> QuerySet:
    """The accounts with the credits each used this billing period, in the same query (for usage_for)."""
    used = UsagePeriod.objects.filter(account=OuterRef("pk"), period_date=billing_period_date())
    return accounts.annotate(credits_used_now=Coalesce(Subquery(used.values("courses_used")[:1]), 0))
