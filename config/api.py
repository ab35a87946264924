from rest_framework.views import APIView

from accounts.authentication import ApiKeyAuthentication
from accounts.permissions import HasPaidPlan


class ApiView(APIView):
    """
    Base of every endpoint under /api/v1. DRF runs, in order: authentication (401), the paid plan
    (403), then the view's own validation and work.
    """

    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [HasPaidPlan]
