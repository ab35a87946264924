import collections

import pytest

from core.ids import BASE62, looks_like_public_id, new_public_id, random_base62


@pytest.mark.parametrize("length", [1, 2, 21, 22, 32, 64])
def test_random_base62_is_that_many_characters_of_base62(length):
    for _ in range(200):
        value = random_base62(length)

        assert len(value) == length
        assert set(value) <= set(BASE62)


def test_every_character_is_equally_likely():
    # Bytes mapped onto 62 characters without dropping any would make the first eight (256 % 62)
    # a quarter likelier than the rest: a chi-square over 61 degrees of freedom of about 900 here.
    # Unbiased, it is about 61, and above 150 less than once in a billion runs.
    counts = collections.Counter("".join(random_base62(62) for _ in range(2000)))
    expected = 2000

    chi_square = sum((counts[char] - expected) ** 2 / expected for char in BASE62)

    assert chi_square < 150


def test_a_public_id_is_its_prefix_and_22_characters_and_looks_like_one():
    public_id = new_public_id("job_")

    assert public_id.startswith("job_") and len(public_id) == 26
    assert looks_like_public_id(public_id, "job_")
    assert not looks_like_public_id(public_id, "cou_")
