"""feed.js in Chromium: it applies every case of tests/vectors/viewpatch.json as server/viewpatch.py does.

The page is a blank one the test serves itself (Playwright's routing answers for a made-up
origin): it loads the shipped feed.js as a module, nothing else, so no server is needed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

from tests.web.conftest import ROOT

ORIGIN = "http://feed.vectors.test"
FEED_JS = ROOT / "server" / "web" / "static" / "feed.js"
VECTORS: list[dict[str, Any]] = json.loads((ROOT / "tests" / "vectors" / "viewpatch.json").read_text("utf-8"))


def _serve(route: Route) -> None:
    if route.request.url.endswith("/feed.js"):
        route.fulfill(body=FEED_JS.read_text("utf-8"), content_type="text/javascript")
    else:
        route.fulfill(body="<!doctype html><title>vectors</title>", content_type="text/html")


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.route(f"{ORIGIN}/**", _serve)
    page.goto(f"{ORIGIN}/")
    try:
        yield page
    finally:
        context.close()


RUN_CASE = """async ({model, update}) => {
  const feed = await import("/feed.js");
  const kept = JSON.stringify(model);
  let out;
  try {
    out = {result: feed.applyUpdate(model, update)};
  } catch (err) {
    if (!(err instanceof feed.PatchMismatchError)) throw err;
    out = {fits: false};
  }
  out.modelKept = JSON.stringify(model) === kept;
  return out;
}"""


@pytest.mark.parametrize("case", VECTORS, ids=[case["name"] for case in VECTORS])
def test_feed_js_gives_every_vectors_result(page: Page, case: dict[str, Any]) -> None:
    out = page.evaluate(RUN_CASE, {"model": case["model"], "update": case["update"]})
    if case.get("fits", True):
        assert out.get("result") == case["result"]
    else:
        assert out.get("fits") is False, f"feed.js applied a patch that does not fit: {out}"
    assert out["modelKept"], "applyUpdate changed the model it was given"


DROP_AND_RESYNC = """async ({model, update, snapshot}) => {
  const feed = await import("/feed.js");
  const seen = [];
  let asked = 0;
  const fetchSnapshot = async () => { asked += 1; return snapshot; };
  const tableFeed = new feed.TableFeed("t1", fetchSnapshot, (m) => seen.push(m && m.seq));
  tableFeed.takeSnapshot(model);
  tableFeed.offer(update);
  const droppedNow = tableFeed.model === null;
  await new Promise((resolve) => setTimeout(resolve, 0));
  return {droppedNow, asked, seen, model: tableFeed.model};
}"""


def test_a_patch_that_does_not_fit_drops_the_model_and_asks_a_snapshot(page: Page) -> None:
    case = next(c for c in VECTORS if c.get("fits") is False)
    snapshot = {**case["model"], "seq": case["update"]["seq"], "status": "fresh"}
    out = page.evaluate(DROP_AND_RESYNC, {"model": case["model"], "update": case["update"], "snapshot": snapshot})
    assert out["droppedNow"] is True
    assert out["asked"] == 1
    assert out["seen"] == [case["model"]["seq"], snapshot["seq"]]
    assert out["model"] == snapshot


LISTEN = """async ({model, update}) => {
  const feed = await import("/feed.js");
  const seen = [];
  const tableFeed = new feed.TableFeed("t1", async () => model, (m) => seen.push(m.seq));
  tableFeed.takeSnapshot(model);
  tableFeed.listener({...update, table: "t2"});
  const otherTable = tableFeed.model.seq;
  tableFeed.listener(update);
  return {otherTable, seen, seq: tableFeed.model.seq};
}"""


def test_the_feed_is_the_sockets_listener_and_takes_only_its_tables_updates(page: Page) -> None:
    case = next(c for c in VECTORS if c.get("fits", True))
    model, update = {**case["model"], "seq": 4}, {**case["update"], "table": "t1", "from_seq": 5, "seq": 5}
    out = page.evaluate(LISTEN, {"model": model, "update": update})
    assert out["otherTable"] == 4
    assert out["seen"] == [4, 5]
    assert out["seq"] == 5
