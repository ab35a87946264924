"""
Machines of a many-machine drill on one host: each its own copy of the checkout in a folder of its
own, with its own empty MEDIA_ROOT, and the service's processes started there from the Procfile's
lines (tests.support.stack). What machines share is only what the environment names: PostgreSQL,
Redis and, when set, the object store.
"""

import shutil
from pathlib import Path

from tests.support.stack import BASE_DIR, Stack

# What a deploy does not ship: the repository, the environments, local data, build output.
_NOT_SHIPPED = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", ".data", "media", "build", "__pycache__", ".pytest_cache", "test-artifacts",
    ".env", "celerybeat-schedule*", ".schemathesis", "site",
)


class Machine(Stack):
    def __init__(self, name: str, root: Path, env: dict):
        home = root / name
        app_dir = home / "app"
        # The collected static files are shipped as a build step would leave them.
        shutil.copytree(BASE_DIR, app_dir, ignore=_NOT_SHIPPED, symlinks=True)
        self.name = name
        self.media_root = home / "media"
        self.media_root.mkdir()
        (home / "metrics").mkdir()
        (home / "logs").mkdir()
        super().__init__(
            {**env, "MEDIA_ROOT": str(self.media_root), "PROMETHEUS_MULTIPROC_DIR": str(home / "metrics")},
            home / "logs",
            app_dir=app_dir,
        )

    def files_kept(self) -> list[str]:
        """Every file on this machine's disk where the service keeps files (its MEDIA_ROOT)."""
        return sorted(str(path.relative_to(self.media_root)) for path in self.media_root.rglob("*") if path.is_file())

    def kill(self) -> None:
        """The machine dies: every process of it at once, with SIGKILL."""
        for process in self.processes:
            process.kill()

    def logs(self) -> str:
        return f"=== {self.name}\n{super().logs()}"
