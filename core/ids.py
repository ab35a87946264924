import re
import secrets
import string

BASE62 = string.ascii_letters + string.digits


def random_base62(length: int) -> str:
    """`length` characters of BASE62, each equally likely, from one read of the system's randomness."""
    chars: list[str] = []
    while len(chars) < length:
        # A byte under 248 (4 x 62) maps evenly onto the 62 characters; the rest (3%) are dropped.
        # Twice the bytes needed almost always suffice: one system call, not one per character.
        chars += [BASE62[byte % 62] for byte in secrets.token_bytes(2 * length) if byte < 248]
    return "".join(chars[:length])


def new_public_id(prefix: str, length: int = 22) -> str:
    """An opaque, unguessable, URL-safe id such as `job_…` (22 base62 chars: ~131 bits)."""
    return f"{prefix}{random_base62(length)}"


_PUBLIC_ID_SHAPE = re.compile(r"[a-z]{3}_[A-Za-z0-9]{1,40}")


def looks_like_public_id(value: str, prefix: str) -> bool:
    """Whether a client-supplied id could be one of ours; anything else is not looked up at all."""
    return value.startswith(prefix) and _PUBLIC_ID_SHAPE.fullmatch(value) is not None


def masked(public_id: str) -> str:
    """
    The id as staff see it where the whole id is a secret (a download link's, a confirmation's): its
    prefix and first 4 characters, `exp_AbCd…`, enough to tell it from its neighbours in a list.
    """
    prefix, separator, rest = public_id.partition("_")
    return f"{prefix}_{rest[:4]}…" if separator else f"{public_id[:4]}…"
