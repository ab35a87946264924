"""
The names web sources go by where learners see them: beside every citation, on a course's page and
in its packages.
"""

from sources.models import Source

SOURCE_NAME_MAX = Source._meta.get_field("name").max_length


def name_from_url(url: str) -> str:
    """
    A web source's name when it is given none: its address without the query or fragment, which
    often carry a token. (The host cannot hold `?` or `#`, and a URL with a user name or a password
    is refused.)
    """
    return url.split("#", 1)[0].split("?", 1)[0][:SOURCE_NAME_MAX]


def shown_name(*, name: str, url: str | None) -> str:
    """
    The name a source is shown by beside its citations: its own, unless it is its whole URL (as a
    web source given no name was named before the name dropped the query, and as courses built then
    still hold it), which is shown without the query or fragment.
    """
    if url and name.lower() == url[:SOURCE_NAME_MAX].lower():
        return name_from_url(name)
    return name
