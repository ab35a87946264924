"""What every admin list of the project shares."""

from django.contrib.admin.options import IncorrectLookupParameters


class DatesInRange:
    """
    A list with a date hierarchy takes a year, month or day from the query string as Django does,
    but one too large for a date (`?created_at__year=99999999999`) is the list's "invalid filter"
    answer, as any other bad filter value is, not a 500 (Django lets the OverflowError through).
    """

    def get_changelist_instance(self, request):
        try:
            return super().get_changelist_instance(request)
        except OverflowError:
            raise IncorrectLookupParameters() from None
