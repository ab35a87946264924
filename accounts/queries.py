from collections.abc import Hashable

from django.db import models

from accounts.models import Account, ApiKey, Plan
from config import row_cache
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
    """
    The key with this SHA-256 that is not revoked, with its account and plan: one query, or none
    while this process keeps the three rows (config/row_cache.py).
    """
    row = row_cache.cached(_kept_as(key_hash), lambda: _LIVE_KEY.row_and_tags(key_hash=key_hash))
    return None if row is None else _LIVE_KEY.instances(row)["k"]


def key_and_kept_row(
    combined: Lookup, alone: Lookup, alias: str, *, key_hash: str, kept_as: Hashable, **params
) -> tuple[ApiKey | None, models.Model | None]:
    """
    The live key (as `live_key`) and a row that does not depend on it, both kept by this process
    (config/row_cache.py), the row under `kept_as`: no query when both are kept, one when neither
    is (`combined`, a `key_lookup` of `alone`'s tables in the same order, LEFT JOINed on `params`
    alone), else one for what is not. `alone` reads the row by `params`. The row is None if not found.
    """
    (key_row, row), keeper = row_cache.read(_kept_as(key_hash), kept_as)
    key_was_kept, row_was_kept = key_row is not row_cache.MISSING, row is not row_cache.MISSING
    if not key_was_kept and not row_was_kept:
        both = combined.row(key_hash=key_hash, **params)
        if both is None:
            return None, None
        key_row, row = both[: _LIVE_KEY.width], both[_LIVE_KEY.width :]
        row = row if alone.tags(row) else None  # every column NULL: the LEFT JOIN found none
    else:
        if not key_was_kept:
            key_row = _LIVE_KEY.row(key_hash=key_hash)
        if key_row is None:
            return None, None
        if not row_was_kept:
            row = alone.row(**params)
    # Only what was read now is kept: a kept row found again is left as it is.
    if not key_was_kept:
        keeper.keep(_kept_as(key_hash), key_row, _LIVE_KEY.tags(key_row))
    if not row_was_kept and row is not None:
        keeper.keep(kept_as, row, alone.tags(row))
    return _LIVE_KEY.instances(key_row)["k"], None if row is None else alone.instances(row)[alias]


def _kept_as(key_hash: str) -> tuple[str, str]:
    return ("key", key_hash)
