import re
import secrets
import string

BASE62 = string.ascii_letters + string.digits


def random_base62(length: int) -> str:
    return "".join(secrets.choice(BASE62) for _ in range(length))


def new_public_id(prefix: str, length: int = 22) -> str:
    """An opaque, unguessable, URL-safe id such as `job_…` (22 base62 chars: ~131 bits)."""
    return f"{prefix}{random_base62(length)}"


_PUBLIC_ID_SHAPE = re.compile(r"[a-z]{3}_[A-Za-z0-9]{1,40}")


def looks_like_public_id(value: str, prefix: str) -> bool:
    """Whether a client-supplied id could be one of ours; anything else is not looked up at all."""
    return value.startswith(prefix) and _PUBLIC_ID_SHAPE.fullmatch(value) is not None
