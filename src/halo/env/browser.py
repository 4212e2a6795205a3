"""Finding a Chromium and sharing one browser between many envs.

One async Playwright (one Node driver) and one Browser per process; every env has its own context (isolated
cookies and storage; BrowserEnv recycles it, cleared, between REAL-local episodes). A browser that died is
relaunched on the next ``new_context``; one that stopped answering (a zygote or GPU process killed under it:
``new_page`` then never returns) is killed with its whole process tree and relaunched by ``restart``. Every call to
Chromium made here has a deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import uuid
from pathlib import Path
from typing import Any

from halo.errors import BrowserError

log = logging.getLogger(__name__)

LAUNCH_ARGS = ("--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-dev-shm-usage")
CONTEXT_DEFAULTS: dict[str, Any] = {
    "viewport": {"width": 1280, "height": 720},
    "timezone_id": "America/Los_Angeles",
    "locale": "en-US",
    "device_scale_factor": 1,
}
DEBIAN_FULL = "/usr/lib/chromium/chromium"
DEBIAN_SHELL = "/usr/lib/chromium/chromium-headless-shell"
FIX = "run `make browser`, or set HALO_CHROMIUM=/path/to/chromium"
BROWSER_CALL_TIMEOUT_S = 15.0  # new_context, browser.close(): Chromium answers these in milliseconds when healthy
LAUNCH_TIMEOUT_S = 60.0
LAUNCH_TRIES = 4


def _playwright_browsers_dir() -> Path:
    env = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if env == "0":
        import playwright

        return Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers"
    if env:
        return Path(env)
    return Path.home() / ".cache" / "ms-playwright"


def _playwright_chromium_installed(headless: bool) -> Path | None:
    """The directory of the Chromium this Playwright version would launch, if it was downloaded."""
    try:
        import playwright

        spec = json.loads((Path(playwright.__file__).parent / "driver" / "package" / "browsers.json").read_text())
    except (OSError, ValueError, ImportError):
        return None
    revs = {b["name"]: b["revision"] for b in spec.get("browsers", [])}
    names = (["chromium-headless-shell"] if headless else []) + ["chromium"]
    root = _playwright_browsers_dir()
    for name in names:
        if name not in revs:
            continue
        d = root / f"{name.replace('-', '_')}-{revs[name]}"
        if d.is_dir() and any(p.is_file() and os.access(p, os.X_OK) and p.name in
                              ("chrome", "headless_shell", "chrome-headless-shell") for p in d.rglob("*")):
            return d
    return None


def find_chromium(headless: bool = True) -> tuple[str | None, str]:
    """``(executable, description)``; ``None`` means "Playwright's own Chromium". Raises ``BrowserError`` if none.

    Order: ``$HALO_CHROMIUM``; Playwright's downloaded Chromium; Debian's headless shell (headless: faster resets,
    less memory) or full Chromium.
    """
    env = os.environ.get("HALO_CHROMIUM")
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env, f"HALO_CHROMIUM={env}"
        raise BrowserError(f"HALO_CHROMIUM={env} is not an executable file; fix the path or unset it")
    pw = _playwright_chromium_installed(headless)
    if pw is not None:
        return None, f"Playwright's own Chromium ({pw})"
    candidates = ([DEBIAN_SHELL] if headless else []) + [DEBIAN_FULL]
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c, f"Debian {'headless shell' if c == DEBIAN_SHELL else 'chromium'} ({c})"
    raise BrowserError(f"no Chromium found (checked HALO_CHROMIUM, Playwright's browsers in "
                       f"{_playwright_browsers_dir()}, {', '.join(candidates)}); {FIX}")


class BrowserPool:
    """One async Playwright and one Browser shared by many envs; relaunches the browser if it died.

    ``async with BrowserPool() as pool: ctx = await pool.new_context()``.
    """

    def __init__(self, headless: bool = True, executable: str | None = None, slow_mo: float = 0):
        self.headless = headless
        self.executable = executable
        self.slow_mo = slow_mo
        self.description = ""
        self.marker = f"--halo-pool={uuid.uuid4().hex[:12]}"  # ignored by Chromium; finds our processes
        self.launches = 0
        self.restarts = 0  # browsers killed because they stopped answering (``restart``)
        self._pw: Any = None
        self._browser: Any = None
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> BrowserPool:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        from playwright.async_api import async_playwright

        if self._pw is None:
            self._pw = await async_playwright().start()
        await self._ensure_browser()

    @property
    def browser(self) -> Any:
        return self._browser

    @property
    def alive(self) -> bool:
        return self._browser is not None and self._browser.is_connected()

    @property
    def generation(self) -> int:
        """Changes with every launch: an env that saw generation g asks ``restart(g)`` and only the first such
        request kills the browser (the others find it already replaced)."""
        return self.launches

    async def _launch(self) -> Any:
        exe, desc = (self.executable, f"executable {self.executable}") if self.executable else \
            find_chromium(self.headless)
        kw: dict[str, Any] = {"headless": self.headless, "args": [*LAUNCH_ARGS, self.marker], "slow_mo": self.slow_mo}
        if exe:
            kw["executable_path"] = exe
        kw["timeout"] = LAUNCH_TIMEOUT_S * 1000
        for attempt in range(1, LAUNCH_TRIES + 1):  # a launch can die under us (OOM killer, a stray kill): retry
            try:
                browser = await asyncio.wait_for(self._pw.chromium.launch(**kw), LAUNCH_TIMEOUT_S + 5)
                break
            except TimeoutError:
                self._kill_tree()
                error = f"Chromium did not start within {LAUNCH_TIMEOUT_S:.0f} s ({desc}); {FIX}"
            except Exception as e:
                self._kill_tree()
                error = f"Chromium failed to launch ({desc}): {str(e).splitlines()[0]}; {FIX}"
            if attempt == LAUNCH_TRIES:
                raise BrowserError(error + f" ({LAUNCH_TRIES} tries)")
            log.warning("%s; trying again", error)
            await asyncio.sleep(0.5 * attempt)
        self.description = f"{desc}, version {browser.version}"
        self.launches += 1
        log.info("browser launched: %s", self.description)
        return browser

    async def _ensure_browser(self) -> Any:
        if self.alive:
            return self._browser
        async with self._lock:
            if not self.alive:
                if self._browser is not None:
                    log.warning("browser died; relaunching")
                    await self._drop_browser()
                self._browser = await self._launch()
        return self._browser

    async def _drop_browser(self) -> None:
        """Close the current browser (bounded) and kill whatever is left of its process tree."""
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(browser.close(), BROWSER_CALL_TIMEOUT_S)
        self._kill_tree()

    async def restart(self, generation: int | None = None, reason: str = "") -> bool:
        """Kill the browser with its whole process tree and launch a new one, unless it was already replaced since
        ``generation``. Every context of the old browser dies with it. True if this call restarted it."""
        async with self._lock:
            if generation is not None and generation != self.generation and self.alive:
                return False
            log.warning("browser stopped answering%s; killing its %d processes and relaunching",
                        f" ({reason})" if reason else "", len(self.browser_pids()))
            self._kill_tree()  # first: a hung browser may never answer close()
            await self._drop_browser()
            self.restarts += 1
            self._browser = await self._launch()
            return True

    async def new_context(self, **kw: Any) -> Any:
        """A fresh BrowserContext: 1280x720, America/Los_Angeles, en-US unless overridden."""
        if self._pw is None:
            raise BrowserError("BrowserPool is not started; use `async with BrowserPool() as pool:`")
        browser = await self._ensure_browser()
        opts = {**CONTEXT_DEFAULTS, **kw}
        try:
            return await asyncio.wait_for(browser.new_context(**opts), BROWSER_CALL_TIMEOUT_S)
        except TimeoutError:
            raise BrowserStuck(f"new_context did not return within {BROWSER_CALL_TIMEOUT_S:.0f} s") from None
        except Exception:
            if not browser.is_connected():  # died between the check and the call: one more try
                browser = await self._ensure_browser()
                return await asyncio.wait_for(browser.new_context(**opts), BROWSER_CALL_TIMEOUT_S)
            raise

    def browser_pids(self) -> list[int]:
        """PIDs of this pool's browser processes, the main process first, then every descendant (zygotes, GPU,
        utility and renderer processes, which do not carry the pool's marker); Linux."""
        main = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                args = (d / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if self.marker.encode() in args and not any(a.startswith(b"--type=") for a in args):
                main.append(int(d.name))
        out = list(main)
        for pid in main:
            out += [p for p in descendants(pid) if p not in out]
        return out

    def _kill_tree(self) -> int:
        """SIGKILL every process of this pool's browser; the number killed."""
        n = 0
        for pid in self.browser_pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                n += 1
        return n

    async def close(self) -> None:
        await self._drop_browser()
        if self._pw is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pw.stop(), BROWSER_CALL_TIMEOUT_S)
            self._pw = None


class BrowserStuck(BrowserError):
    """A call to Chromium missed its deadline: the browser is alive but does not answer."""


def descendants(pid: int) -> list[int]:
    """Every descendant of ``pid`` (psutil where installed, else /proc's parent links), parents first."""
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        try:
            return [p.pid for p in psutil.Process(pid).children(recursive=True)]
        except psutil.Error:
            return []
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])  # the name in (...) may hold spaces
        children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(0), []):
            out.append(c)
            todo.append(c)
    return out
