import secrets
import string

BASE62 = string.ascii_letters + string.digits


def random_base62(length: int) -> str:
    return "".join(secrets.choice(BASE62) for _ in range(length))


def new_public_id(prefix: str, length: int = 22) -> str:
    """An opaque, unguessable, URL-safe id such as `job_…` (22 base62 chars: ~131 bits)."""
    return f"{prefix}{random_base62(length)}"
