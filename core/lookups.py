"""Reading one row by a unique key."""

from django.db.models import Model, QuerySet


def one_or_none(queryset: QuerySet) -> Model | None:
    """
    The one row a queryset filtered on a unique key matches, or None. Unlike `first()`, it asks
    for no ordering, so PostgreSQL sorts nothing and the statement stays the same for every key.
    """
    try:
        return queryset.get()
    except queryset.model.DoesNotExist:
        return None
