"""Headless Chromium driven over the DevTools protocol on a pipe, for the page tests: load a
page, press real keys, read the DOM. Only the standard library: the browser reads commands on
its fd 3 and answers on fd 4, each a JSON object ended by a NUL byte."""
from __future__ import annotations

import base64
import contextlib
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if Path(p).exists()), None)

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "ArrowDown": 40, "ArrowUp": 38, "PageDown": 34, "PageUp": 33,
        "Home": 36, "End": 35, " ": 32, "Tab": 9, "Enter": 13}


class Browser:
    """One headless Chromium with one page; use as a context manager."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()

        def on_fds_3_and_4() -> None:  # dup first: dup2 onto the same number keeps close-on-exec
            read, write = os.dup(commands_read), os.dup(answers_write)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=on_fds_3_and_4, close_fds=False,  # only dup2 before exec
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(answers_write)
        self._buffer, self._id = b"", 0
        page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride", self.session, width=1000, height=1400,
                  deviceScaleFactor=1, mobile=False)  # a whole 9x9 page in view, one pixel a CSS pixel

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        with contextlib.suppress(OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._commands)
        os.close(self._answers)

    def call(self, method: str, session: str | None = None, **params: Any) -> dict:
        """Send one command and wait for its answer (events in between are dropped)."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._answers, 1 << 16)
                if not chunk:
                    raise OSError("chromium closed its pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self._id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", self.session, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def open(self, url: str, ready: str = "document.body && document.body.dataset.ready === 'true'",
             patience: float = 60.0) -> None:
        """Load url and wait until the ready expression holds."""
        self.call("Page.navigate", self.session, url="about:blank")  # a new document, even when
        self.wait_for("document.readyState === 'complete'")     # only the #fragment differs
        self.call("Page.navigate", self.session, url=url)
        self.wait_for(ready, patience)

    def wait_for(self, expression: str, patience: float = 60.0) -> Any:
        """Poll until the expression is truthy; its value. Fails after patience seconds."""
        deadline = time.monotonic() + patience
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"still false after {patience} s: {expression}")
            time.sleep(0.05)

    def press(self, key: str) -> None:
        """A real key press (down and up) to the focused element, as a keyboard makes it."""
        code = KEYS[key]
        fields = {"key": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code,
                  "code": {" ": "Space"}.get(key, key)}
        text = {" ": " ", "Enter": "\r"}.get(key)
        self.call("Input.dispatchKeyEvent", self.session, type="keyDown" if text else "rawKeyDown",
                  **fields, **({"text": text} if text else {}))
        self.call("Input.dispatchKeyEvent", self.session, type="keyUp", **fields)

    def screenshot(self) -> bytes:
        """The page as it looks now, as a PNG."""
        return base64.b64decode(self.call("Page.captureScreenshot", self.session)["data"])
