from rest_framework.permissions import BasePermission

from accounts import services


class HasPaidPlan(BasePermission):
    """Checked on every request, straight from the database: a plan change applies at once."""

    def has_permission(self, request, view):
        services.require_paid_plan(account=request.auth.account)
        return True
