"""
How the admin shows what carries a secret: a URL (a callback's or a web page's token in its query,
a password before its host) and a link's id. Staff see where a URL goes, never what opens it. Error
tracking's events (core/error_tracking.py) go through the same rule, and mask keys and signing
secrets too.
"""

import re
import urllib.parse

from core.ids import masked

# Ids that are a link's whole secret, the link needing nothing else: an export's (its download link)
# and a sign-off's (its confirmation page, which shows the signer's name). Course, job, source and
# learner ids are not secrets.
LINK_ID_PREFIXES = ("exp_", "sig_")

# A link's id in any text: its prefix and more than the 4 characters `masked` keeps.
_LINK_ID = re.compile(rf"(?<![A-Za-z0-9])(?:{'|'.join(LINK_ID_PREFIXES)})[A-Za-z0-9]{{5,}}")
# A client's API key (accounts.services.KEY_PREFIX) and an account's webhook signing secret, whole.
_KEY_OR_SIGNING_SECRET = re.compile(r"(?<![A-Za-z0-9])(?:cgs_[A-Za-z0-9]{8,}|whsec_[A-Za-z0-9+/=]{8,})")
# A URL in any text: an absolute one, one without its scheme (`//host/…`), or a path with a query or
# a fragment (`/cgs/?token=…`, as a redirect's Location may be).
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+|(?<![\w/])//\S+|(?<![\w.~/-])/[^\s?#]*[?#]\S*")


def redacted_url(url: str) -> str:
    """
    The URL as staff see it: its scheme, host and path, with a link's id in the path masked
    (`/downloads/exp_AbCd…`); a user name and password are dropped, and a query or a fragment is
    shown as `?…` or `#…`, whatever it holds. A relative URL keeps what it has of these.
    """
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError:  # an IPv6 host without its closing bracket
        return "(a URL that cannot be read)"
    host = parts.netloc.rpartition("@")[2]
    scheme = f"{parts.scheme}:" if parts.scheme else ""
    authority = f"//{host}" if parts.scheme or parts.netloc else ""
    shown = f"{scheme}{authority}{_masking_link_ids(parts.path)}"
    return shown + ("?…" if parts.query else "") + ("#…" if parts.fragment else "")


def redacted_text(text: str) -> str:
    """The text with every URL in it redacted (redacted_url) and every link's id masked."""
    return _masking_link_ids(_URL.sub(lambda found: redacted_url(found.group()), text))


def _masking_link_ids(text: str) -> str:
    return _LINK_ID.sub(lambda found: masked(found.group()), text)


def redacted_secrets(text: str, *, secrets: list[str] = ()) -> str:
    """
    The text redacted (redacted_text), with every API key and webhook signing secret in it, and
    every one of `secrets` (SECRET_KEY, the model server's key), replaced by `[secret]`.
    """
    for secret in secrets:
        text = text.replace(secret, "[secret]")
    return redacted_text(_KEY_OR_SIGNING_SECRET.sub("[secret]", text))
