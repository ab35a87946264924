"""
requirements.txt alone runs the service: no module the web, workers or beat load imports a package
that only requirements-dev.txt brings, and each compiled file pins what its .in file names.
"""

import ast
import importlib.metadata
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The folders at the top that hold Python packages but nothing the service runs: the tests, and the
# load harness of `make bench`. Every other one is the service's (apps, and whatever layer is added).
NOT_THE_SERVICE = {"tests", "bench"}


def _top_level_packages(root: Path) -> set[str]:
    return {path.parent.name for path in root.glob("*/__init__.py")}


def _service_modules(root: Path) -> list[Path]:
    """manage.py (the release step's migrate) and every module of the service's packages."""
    packages = sorted(_top_level_packages(root) - NOT_THE_SERVICE)
    return sorted(root.glob("*.py")) + [path for package in packages for path in (root / package).rglob("*.py")]


def _imported_names(module: Path) -> set[str]:
    """The top-level names of every absolute import in the module, function-local ones included."""
    names = set()
    for node in ast.walk(ast.parse(module.read_text(), filename=str(module))):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _normalized(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _pinned(requirements: Path) -> dict[str, str]:
    """The name and version of every `name==version` line of a compiled requirements file."""
    lines = requirements.read_text().splitlines()
    return {
        _normalized(match[1]): match[2]
        for match in (re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)", line) for line in lines)
        if match
    }


def _named(requirements_in: Path) -> dict[str, str | None]:
    """The packages a .in file names (not those of the files it includes), with the version it pins."""
    named = {}
    for line in requirements_in.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?(?:==(\S+))?", line)
            assert match, f"{requirements_in.name}: {line!r} is neither `name` nor `name==version`"
            named[_normalized(match[1])] = match[2]
    return named


def imports_outside(root: Path, requirements: Path) -> dict[str, list[str]]:
    """
    Every package imported by the service's modules under root that no line of the compiled
    requirements file installs, with the modules importing it. A name is looked up among the
    installed distributions (the dev set is installed): one that none provides is reported too.
    """
    own = (_top_level_packages(root) - NOT_THE_SERVICE) | {path.stem for path in root.glob("*.py")}
    pinned = _pinned(requirements)
    providers = importlib.metadata.packages_distributions()
    outside: dict[str, list[str]] = {}
    for module in _service_modules(root):
        for name in _imported_names(module) - own - set(sys.stdlib_module_names):
            if not any(_normalized(dist) in pinned for dist in providers.get(name, [])):
                outside.setdefault(name, []).append(str(module.relative_to(root)))
    return outside


def not_compiled(requirements_in: Path, requirements_txt: Path) -> dict[str, tuple[str | None, str | None]]:
    """
    Each package the .in file names that the compiled file does not pin, or pins at another version
    than the .in file's, with both versions (None where there is none).
    """
    pinned = _pinned(requirements_txt)
    return {
        dist: (version, pinned.get(dist))
        for dist, version in _named(requirements_in).items()
        if dist not in pinned or version not in (None, pinned[dist])
    }


def test_the_service_imports_only_what_requirements_txt_installs():
    assert imports_outside(ROOT, ROOT / "requirements.txt") == {}


def test_an_import_of_a_test_package_in_a_new_folder_of_the_service_is_caught(tmp_path):
    # A folder added at the top (not a hand-kept list) is the service's as soon as it is a package.
    (tmp_path / "manage.py").write_text("import django\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "__init__.py").write_text("import factory\n")
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("")
    (tmp_path / "core" / "clock.py").write_text(
        "import datetime\nfrom core import ids\n\ndef now():\n    import time_machine\n    from tests import x\n"
    )

    outside = imports_outside(tmp_path, ROOT / "requirements.txt")

    assert outside == {"time_machine": ["core/clock.py"], "tests": ["core/clock.py"]}


def test_each_compiled_file_pins_what_its_in_file_names():
    for name in ("requirements", "requirements-dev"):
        differing = not_compiled(ROOT / f"{name}.in", ROOT / f"{name}.txt")

        assert differing == {}, f"{name}.txt is not compiled from {name}.in: run `make requirements`"


def test_a_package_an_in_file_names_but_its_compiled_file_lacks_or_pins_otherwise_is_caught(tmp_path):
    (tmp_path / "requirements.in").write_text(
        "-r base.in\nDjango==5.2.19\n# why it is there\nlxml_html_clean\npsycopg[binary]==3.3.9\ngunicorn\n"
    )
    (tmp_path / "requirements.txt").write_text(
        "django==5.2.18 \\\n    --hash=sha256:00\nlxml-html-clean==0.4.6 \\\n    --hash=sha256:00\n"
        "psycopg==3.3.9 \\\n    --hash=sha256:00\n"
    )

    differing = not_compiled(tmp_path / "requirements.in", tmp_path / "requirements.txt")

    assert differing == {"django": ("5.2.19", "5.2.18"), "gunicorn": (None, None)}


def test_the_runtime_set_has_no_test_or_tool_package():
    runtime = _pinned(ROOT / "requirements.txt")

    assert {"pytest", "playwright", "schemathesis", "ruff", "honcho", "uv"} & runtime.keys() == set()
