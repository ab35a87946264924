from accounts.models import Account, ApiKey, Plan
from config.sql import Lookup, Table

# Every API request looks its key up: one query, compiled once (config/sql.py), that also loads
# the account and plan, which the plan check and the rate limiter need straight after.
_LIVE_KEY = Lookup(
    Table(ApiKey, "k"),
    Table(Account, "a"),
    Table(Plan, "p"),
    joins='JOIN "accounts_account" a ON a."id" = k."account_id" '
    'JOIN "accounts_plan" p ON p."id" = a."plan_id" '
    'WHERE k."key_hash" = %s AND k."revoked_at" IS NULL',
    relations=("account", "plan"),
)


def live_key(*, key_hash: str) -> ApiKey | None:
    """The key with this SHA-256 that is not revoked, with its account and plan; one query."""
    found = _LIVE_KEY.one(key_hash)
    return None if found is None else found[0]
