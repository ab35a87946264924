from django.db import models

from accounts.models import Account, ApiKey, Plan
from config.sql import Lookup, Table

# Every API request looks its key up: one query, compiled once (config/sql.py), that also loads
# the account and plan, which the plan check and the rate limiter need straight after. A view
# that reads one row of the key's own (a poll its job, a read its course) joins it to this same
# query (`key_lookup`): one round trip to the database for both.
_KEY_TABLES = (
    Table(ApiKey, "k"),
    Table(Account, "a", parent="k", relation="account"),
    Table(Plan, "p", parent="a", relation="plan"),
)
_KEY_JOINS = 'JOIN "accounts_account" a ON a."id" = k."account_id" JOIN "accounts_plan" p ON p."id" = a."plan_id" '
_LIVE_KEY_WHERE = 'WHERE k."key_hash" = %(key_hash)s AND k."revoked_at" IS NULL'


def key_lookup(*tables: Table, joins: str = "") -> Lookup:
    """
    A lookup of the live key (alias `k`, with its account `a` and plan `p`), given its SHA-256 as
    the parameter `key_hash`, and of `tables` by `joins`: LEFT JOINs (a missing row must not hide
    the key) that may use `k."id"` and their own %(name)s parameters.
    """
    return Lookup(*_KEY_TABLES, *tables, joins=_KEY_JOINS + joins + _LIVE_KEY_WHERE)


def key_and_row(lookup: Lookup, alias: str, *, key_hash: str, **params) -> tuple[ApiKey | None, models.Model | None]:
    """Run a `key_lookup`: the live key and its row under `alias` (None for none), or (None, None)."""
    found = lookup.one(key_hash=key_hash, **params)
    return (None, None) if found is None else (found["k"], found[alias])


_LIVE_KEY = key_lookup()


def live_key(*, key_hash: str) -> ApiKey | None:
    """The key with this SHA-256 that is not revoked, with its account and plan; one query."""
    found = _LIVE_KEY.one(key_hash=key_hash)
    return None if found is None else found["k"]
