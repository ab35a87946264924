"""
The base of every request's input (a body or a query string): what it does not know it refuses,
and it reports every problem at once.
"""

import difflib

from rest_framework import serializers

from core import errors


class Input(serializers.Serializer):
    """
    A request's fields. A field it does not have is a problem, named with the field meant where one
    is close (`addons`: did you mean `addOns`?), so a misspelt option is never ignored and charged
    for. `is_valid(raise_exception=True)` raises core.errors.InvalidInput with every problem, each
    with its path and, for a choice, the values allowed.
    """

    # What an unknown field is told; an input may say where the field it lacks lives.
    not_a_field = "Not a field of this request."

    def to_internal_value(self, data):
        unknown = self._unknown_fields(data)
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if not unknown:
                raise
            raise serializers.ValidationError({**unknown, **exc.detail}) from None
        if unknown:
            raise serializers.ValidationError(unknown)
        return value

    def is_valid(self, *, raise_exception=False):
        valid = super().is_valid()
        if not valid and raise_exception:
            raise errors.InvalidInput(errors.problems_in(self.errors, self))
        return valid

    def _unknown_fields(self, data) -> dict:
        if not hasattr(data, "keys"):
            return {}  # not an object: DRF says so
        known = [name for name, field in self.fields.items() if not field.read_only]
        return {name: [self._not_a_field(name, known)] for name in data.keys() if name not in self.fields}

    def _not_a_field(self, name: str, known: list[str]) -> str:
        # Compared without case, so that `addons` and `callbackURL` find `addOns` and `callbackUrl`.
        by_lower = {field.lower(): field for field in known}
        close = difflib.get_close_matches(str(name).lower(), list(by_lower), n=1, cutoff=0.6)
        if close:
            return f"{self.not_a_field.removesuffix('.')}; did you mean `{by_lower[close[0]]}`?"
        return self.not_a_field
