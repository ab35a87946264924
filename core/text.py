"""What every text the service takes must show: something visible."""

# Spaces, and the invisible formatting characters (soft hyphen, zero-width and bidi controls): a
# text made only of them, and of line breaks, shows nothing.
# Also the fillers that draw nothing (Hangul, braille), the combining grapheme joiner and the
# variation selectors. All in the Basic Multilingual Plane, so a JSON Schema pattern can name them.
BLANK_CODES = [
    0x20, 0xA0, 0xAD, 0x034F, 0x115F, 0x1160, 0x1680, 0x180E, *range(0x2000, 0x2010), 0x2028, 0x2029,
    *range(0x202A, 0x2030), 0x205F, *range(0x2060, 0x2065), *range(0x2066, 0x2070), 0x2800, 0x3000,
    0x3164, *range(0xFE00, 0xFE10), 0xFEFF, 0xFFA0,
]  # fmt: skip
BLANKS = "".join(map(chr, BLANK_CODES))
