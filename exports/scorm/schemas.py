"""
Validate an `imsmanifest.xml` against the official XSDs of its SCORM version, offline.

The schemas are the project's own copies in `xsd/<folder>/` (see its README). One small wrapper
schema imports every namespace a manifest of that version may use, the xml: namespace first, so
the W3C URL that 4th Edition `imscp_v1p1.xsd` names is never fetched; a resolver refuses anything
outside the folder, and DTDs are never loaded.
"""

import functools
from pathlib import Path

from lxml import etree

XSD_ROOT = Path(__file__).resolve().parent / "xsd"

XML_NS = "http://www.w3.org/XML/1998/namespace"

# Per schema folder: (namespace, file) in import order.
IMPORTS = {
    "scorm12": [
        (XML_NS, "ims_xml.xsd"),
        ("http://www.imsproject.org/xsd/imscp_rootv1p1p2", "imscp_rootv1p1p2.xsd"),
        ("http://www.adlnet.org/xsd/adlcp_rootv1p2", "adlcp_rootv1p2.xsd"),
        ("http://www.imsglobal.org/xsd/imsmd_rootv1p2p1", "imsmd_rootv1p2p1.xsd"),
    ],
    **{
        folder: [
            (XML_NS, "xml.xsd"),
            ("http://www.imsglobal.org/xsd/imscp_v1p1", "imscp_v1p1.xsd"),
            ("http://www.adlnet.org/xsd/adlcp_v1p3", "adlcp_v1p3.xsd"),
            ("http://www.adlnet.org/xsd/adlseq_v1p3", "adlseq_v1p3.xsd"),
            ("http://www.adlnet.org/xsd/adlnav_v1p3", "adlnav_v1p3.xsd"),
            ("http://www.imsglobal.org/xsd/imsss", "imsss_v1p0.xsd"),
            ("http://ltsc.ieee.org/xsd/LOM", "lom.xsd"),
        ]
        for folder in ("scorm2004-3", "scorm2004-4")
    },
}

# libxml2 rejects two of the official SCORM 1.2 files as published (Rustici's own 1.2 samples warn
# that "the XSD files for SCORM 1.2 are not strictly valid"); they are patched here, in memory only.
_PATCHES = {
    ("scorm12", "ims_xml.xsd"): [
        # binds the default namespace to the xml: namespace, which XML Namespaces forbids
        (b'xmlns="http://www.w3.org/XML/1998/namespace"', b""),
    ],
    ("scorm12", "imsmd_rootv1p2p1.xsd"): [
        # an ##any wildcard beside declared elements makes the content models non-deterministic
        (b'<xsd:any namespace="##any"', b'<xsd:any namespace="##other"'),
    ],
}


class ManifestInvalid(Exception):
    """The manifest does not validate; the message lists libxml2's errors."""


class _LocalOnly(etree.Resolver):
    """Serve files of one schema folder (patched where needed); refuse everything else."""

    def __init__(self, folder: str):
        super().__init__()
        self.folder = folder
        self.root = (XSD_ROOT / folder).resolve()

    def resolve(self, system_url, public_id, context):
        path = Path(system_url.removeprefix("file://")).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            raise ManifestInvalid(f"schema {system_url} is not in the project's copy of {self.folder}")
        data = path.read_bytes()
        for old, new in _PATCHES.get((self.folder, path.relative_to(self.root).as_posix()), []):
            if old not in data:
                raise ManifestInvalid(f"{path.name} is not the published file this patch expects")
            data = data.replace(old, new)
        return self.resolve_string(data, context, base_url=path.as_uri())


def _parser(folder: str | None = None) -> etree.XMLParser:
    parser = etree.XMLParser(
        no_network=True, load_dtd=False, resolve_entities=False, dtd_validation=False, huge_tree=False
    )
    if folder is not None:
        parser.resolvers.add(_LocalOnly(folder))
    return parser


@functools.cache
def schema_for(folder: str) -> etree.XMLSchema:
    """The compiled schema set of one folder of `xsd/` (cached: compiling LOM takes a while)."""
    base = (XSD_ROOT / folder).resolve()
    imports = "".join(
        f'<xs:import namespace="{namespace}" schemaLocation="{(base / file).as_uri()}"/>'
        for namespace, file in IMPORTS[folder]
    )
    wrapper = f'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">{imports}</xs:schema>'
    document = etree.fromstring(wrapper.encode(), _parser(folder), base_url=(base / "wrapper.xsd").as_uri())
    return etree.XMLSchema(document)


def validate_manifest(*, folder: str, manifest: bytes) -> None:
    """
    Check a manifest against the schema set of its version's folder.
    :raises ManifestInvalid: with every validation error, if it does not validate
    """
    schema = schema_for(folder)
    try:
        document = etree.fromstring(manifest, _parser())
    except etree.XMLSyntaxError as exc:
        raise ManifestInvalid(f"not well-formed XML: {exc}") from None
    if not schema.validate(document):
        raise ManifestInvalid("; ".join(f"line {e.line}: {e.message}" for e in schema.error_log))
