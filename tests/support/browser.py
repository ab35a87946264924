"""Headless Chromium for the browser tests: Debian's `chromium`, driven by Playwright."""

import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API keeps an event loop running in the test thread; Django would then refuse
# the test database work around it, which is synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
NODE_MODULES = ROOT / "node_modules"

# This machine's network is closed: without these flags Chromium keeps trying to reach Google.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("Debian's chromium is not installed: run `make test`, which installs it")
    return path


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, unhashed_static):
    """
    A fresh page that records console errors and failed requests in `page.problems`; pages of the
    live server link static files it can serve.
    """
    context = browser.new_context()
    page = context.new_page()
    page.problems = []
    page.on("console", lambda msg: msg.type == "error" and page.problems.append(f"console: {msg.text}"))
    page.on("pageerror", lambda exc: page.problems.append(f"pageerror: {exc}"))
    yield page
    context.close()


def save_screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def serious_accessibility_violations(page) -> list[str]:
    """What axe-core finds serious or critical on the page as it is now: each rule with up to three of its places."""
    page.add_script_tag(path=str(NODE_MODULES / "axe-core" / "axe.min.js"))
    return page.evaluate(
        """async () => (await axe.run(document)).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", "))"""
    )


@pytest.fixture
def unhashed_static(settings):
    """
    Static files for pages under `live_server`: its handler serves /static/ from the source
    folders and knows no manifest, so pages must link the plain file names.
    """
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
