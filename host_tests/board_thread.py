# The browser tests' board and browser (test_web_browser, test_web_players), CPython only: the
# firmware's runner (net_harness) serving on loopback from a thread of its own, and Debian's
# chromium through Playwright (its executable path set, nothing downloaded).
import asyncio
import contextlib
import os
import threading

import pytest

CHROMIUM = '/usr/bin/chromium'
needs_chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                    reason='no chromium at ' + CHROMIUM)


class Board:
    """The runner of net_harness in a thread of its own, serving until stopped; `ready_s`:
    how long it may take to come up."""

    def __init__(self, tag, ready_s=20, **kw):
        import net_harness as nh
        self.nh = nh
        self.h = nh.Harness(tag=tag, **kw)
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(ready_s), 'the board did not start'

    def _run(self):
        asyncio.set_event_loop(self.loop)

        async def main():
            self.done = asyncio.Event()
            self.main = asyncio.current_task()
            self.h.runner.start()
            await self.h.wait_up()
            self.ready.set()
            await self.done.wait()
        try:
            self.loop.run_until_complete(main())
        except BaseException:   # cancelled by stop()
            pass

    def on_board(self, fn):
        """Run fn() on the board's loop (the controller is not thread-safe) and return it."""
        async def call():
            return fn()
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(5)

    def act(self, action):
        return self.on_board(lambda: self.h.ctl.act(action, self.h.runner.now()))

    def press(self, button, gesture):
        return self.on_board(lambda: self.h.ctl.press(button, gesture, self.h.runner.now()))

    def view(self):
        return self.on_board(lambda: dict(self.h.ctl.view))

    @property
    def url(self):
        return 'http://127.0.0.1:%d/' % self.h.port

    def stop(self):
        async def shutdown():
            self.h.runner.stop()
            me = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not me and t is not self.main]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self.done.set()
        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(5)
        self.thread.join(5)
        self.loop.close()


@contextlib.contextmanager
def chromium():
    """Headless chromium (Playwright's browser object); the test skips without Playwright."""
    sync_api = pytest.importorskip('playwright.sync_api')
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=['--no-sandbox'])
        yield browser
        browser.close()
