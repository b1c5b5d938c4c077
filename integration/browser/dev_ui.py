"""Drives ADK's web UI, served by agentsvc --dev-ui, in headless Chromium.

Usage: dev_ui.py BASE_URL FAKE_URL OUT_DIR CHROMIUM

BASE_URL is agentsvc's REST listener, FAKE_URL the fake Gemini server the
service calls (scripted here through its control API), OUT_DIR where the
screenshots go. Each step prints PASS or SKIP; the first failure ends the
run with a non-zero status and a screenshot named after the step.
"""

import json
import pathlib
import sys
import urllib.request

from playwright.sync_api import expect, sync_playwright

BASE, FAKE, OUT, CHROMIUM = sys.argv[1:5]
OUT_DIR = pathlib.Path(OUT)
OUT_DIR.mkdir(parents=True, exist_ok=True)
TIMEOUT_MS = 15_000


def script_model(responses):
    """Queues the fake model's next answers."""
    req = urllib.request.Request(FAKE + "/_fake/script", data=json.dumps({"responses": responses}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(req, timeout=5).read()


def reply(parts):
    return {"response": {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}],
                         "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 3, "totalTokenCount": 8}}}


def fail_model_on(text, code, message):
    """Makes the fake model answer every request whose last user text holds text with an API error."""
    body = {"rules": [{"contains": text, "error": {"code": code, "message": message}}]}
    req = urllib.request.Request(FAKE + "/_fake/script", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(req, timeout=5).read()


def watch_not_served(page):
    """Records, from now on, the answers of status 501 and the console's errors."""
    seen = {"not_served": [], "console": []}
    page.on("response", lambda r: seen["not_served"].append(r.url) if r.status == 501 else None)
    page.on("console", lambda m: seen["console"].append(m.text) if m.type == "error" else None)
    return seen


def check_quiet_app_load(seen):
    """An app's load asked nothing that answers 501 (eval sets, eval results, builder) and logged no such error."""
    assert not seen["not_served"], seen["not_served"]
    noisy = [c for c in seen["console"] if "501" in c or "eval" in c.lower() or "builder" in c.lower()]
    assert not noisy, noisy


def check_model_error_2x(page):
    """ADK 2.x profile: a model's 500 shows ADK's snackbar and the stored error event, also after a reload."""
    fail_model_on("please fail", 500, "The model is overloaded.")
    page.goto(BASE + "/dev-ui/?app=chat_2x", wait_until="networkidle")
    page.fill("textarea", "please fail")
    page.keyboard.press("Enter")
    snack = page.locator("mat-snack-bar-container")
    expect(snack).to_contain_text("ServerError: 500 INTERNAL")
    expect(page.locator(".chat-messages, app-chat-panel").get_by_text("The model is overloaded.").first).to_be_visible()
    page.reload(wait_until="networkidle")
    expect(page.get_by_text("please fail").first).to_be_visible()
    expect(page.get_by_text("The model is overloaded.").first).to_be_visible()


def check_model_error_1x(page):
    """ADK 1.x profile: a model's 429 shows ADK's snackbar with google-genai's text; nothing is stored."""
    fail_model_on("fail again", 429, "Quota exceeded for this key.")
    page.goto(BASE + "/dev-ui/?app=assistant", wait_until="networkidle")
    page.fill("textarea", "fail again")
    page.keyboard.press("Enter")
    expect(page.locator("mat-snack-bar-container")).to_contain_text("Quota exceeded for this key.")


def check_eval_write_error(page):
    """The Evals tab lists no eval sets; creating one fails with the message under ADK's "detail"."""
    page.goto(BASE + "/dev-ui/?app=assistant", wait_until="networkidle")
    page.get_by_role("tab", name="Eval").click()
    with page.expect_response(lambda r: r.request.method == "POST" and "/eval-sets" in r.url) as created:
        page.get_by_text("Create Evaluation Set").first.click()
        page.get_by_role("button", name="Create").click()
    answer = created.value
    assert answer.status == 501, answer.status
    assert "not installed" in answer.json().get("detail", ""), answer.text()


def check_long_running_answer(page, run_bodies, app, same):
    """Answers get_user_choice's long-running call in the UI's response box: in ADK 2.x the answer and the reply
    continue the invocation that asked (same), in ADK 1.x (an app that is not resumable) they start their own."""
    script_model([reply([{"functionCall": {"name": "get_user_choice", "args": {"options": ["tea", "coffee"]}}}]),
                  reply([{"text": "Tea it is."}])])
    page.goto(BASE + f"/dev-ui/?app={app}", wait_until="networkidle")
    sent = len(run_bodies)
    page.fill("textarea", "Tea or coffee?")
    page.keyboard.press("Enter")
    answer = page.locator("app-long-running-response").first
    answer.locator("input.response-input").fill("tea")
    answer.locator("button.send-button").click()
    expect(page.get_by_text("Tea it is.").first).to_be_visible()
    session_id = run_bodies[sent]["sessionId"]
    with urllib.request.urlopen(f"{BASE}/apps/{app}/users/user/sessions/{session_id}", timeout=5) as r:
        events = json.load(r)["events"]
    ids = [ev["invocationId"] for ev in events]
    assert len(ids) == 4, ids
    assert (len(set(ids)) == 1) == same and ids[0] == ids[1] and ids[2] == ids[3], ids


def center(node):
    """The centre of an SVG node group's shape."""
    box = node.locator("path, polygon, ellipse").first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def workflow_2x(page):
    """An adk_behavior "2.x" app (the trip_planner workflow): its agent
    structure graph drawn as ADK 2.13 draws it (top to bottom, rounded
    rectangles with ADK's icons, START and END, arrowheads), and its run's
    spans named as ADK 2.13 names them in the trace tab."""
    page.goto(BASE + "/dev-ui/?app=trip_planner", wait_until="networkidle")
    page.locator("button:has(mat-icon:text-is('account_tree'))").click()
    svg = page.locator("svg:has(g.node)").first
    expect(svg).to_be_visible()
    nodes = {}
    for g in svg.locator("g.node").all():
        nodes[g.locator("title").text_content().strip()] = g
    assert {"__START__", "outline", "sights", "food", "both", "itinerary", "__END__"} <= set(nodes), list(nodes)
    text = svg.text_content()
    assert "✦" in text and "⌵" in text, text
    # Rounded rectangles (paths), not ellipses, for the agents.
    assert nodes["outline"].locator("ellipse").count() == 0 and nodes["outline"].locator("path").count() > 0
    # Top to bottom: each step lies below the one before it.
    ys = [center(nodes[n])[1] for n in ("__START__", "outline", "sights", "both", "itinerary", "__END__")]
    assert ys == sorted(ys) and ys[-1] - ys[0] > 200, ys
    # Every edge ends in an arrowhead.
    edges = svg.locator("g.edge").all()
    assert edges and all(e.locator("polygon").count() == 1 for e in edges), len(edges)
    page.screenshot(path=str(OUT_DIR / "workflow-2x-graph.png"))
    page.goto(BASE + "/dev-ui/?app=trip_planner", wait_until="networkidle")

    page.fill("textarea", "Lisbon")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Echo:").first).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.get_by_text("Traces", exact=True).click()
    expect(page.get_by_text("invoke_workflow trip_planner").first).to_be_visible()
    expect(page.get_by_text("generate_content gemini-2.5-flash").first).to_be_visible()
    expect(page.get_by_text("call_llm")).to_have_count(0)


def main():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.set_default_timeout(TIMEOUT_MS)
        run_bodies = []
        page.on("request", lambda r: run_bodies.append(r.post_data_json) if r.url.endswith("/run_sse") else None)
        creates, created = [], []
        page.on("response", lambda r: created.append((r.status, r.text()))
                if r.request.method == "POST" and r.url.endswith("/sessions") else None)
        page.on("request", lambda r: creates.append(r.post_data_json or {})
                if r.method == "POST" and r.url.endswith("/sessions") else None)
        step = "start"
        seen = watch_not_served(page)

        def done(name):
            page.screenshot(path=str(OUT_DIR / f"{name}.png"))
            print(f"PASS {name}", flush=True)

        try:
            step = "app-list"
            page.goto(BASE + "/dev-ui/", wait_until="networkidle")
            page.get_by_role("button", name="Select an app").click()
            for app in ("assistant", "dispatcher", "story_pipeline", "weather_bot"):
                expect(page.get_by_text(app, exact=True)).to_be_visible()
            done(step)
            page.get_by_text("assistant", exact=True).click()

            step = "message-and-reply"
            page.fill("textarea", "Hello there")
            page.keyboard.press("Enter")
            expect(page.get_by_text("Echo: Hello there")).to_be_visible()
            assert "session=" in page.url, page.url
            session_id = page.url.split("session=")[1].split("&")[0]
            done(step)

            step = "quiet-app-load"
            check_quiet_app_load(seen)
            done(step)

            step = "streaming"
            page.get_by_role("button", name="More options").click()
            page.get_by_role("menuitem", name="Streaming").click()
            page.keyboard.press("Escape")
            page.fill("textarea", "Stream this")
            page.keyboard.press("Enter")
            expect(page.get_by_text("Echo: Stream this")).to_be_visible()
            assert run_bodies and run_bodies[-1].get("streaming") is True, run_bodies[-1:]
            done(step)

            step = "export-and-import"
            page.get_by_text("arrow_drop_down").nth(1).click()
            with page.expect_download() as dl:
                page.get_by_role("button", name="Export").click()
            exported = OUT_DIR / "exported-session.json"
            dl.value.save_as(exported)
            with page.expect_file_chooser() as fc:
                page.get_by_role("button", name="Import").click()
            fc.value.set_files(str(exported))
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(500)
            assert creates and creates[-1].get("events"), "the import sent no events"
            original = json.loads(exported.read_text())
            sessions = page.request.get(f"{BASE}/apps/assistant/users/user/sessions").json()
            imported = [x for x in sessions if x["id"] != original["id"]]
            assert imported, (sessions, created[-1:], json.dumps(creates[-1])[:1500])
            restored = page.request.get(f"{BASE}/apps/assistant/users/user/sessions/{imported[-1]['id']}").json()
            assert [e.get("author") for e in restored["events"]] == [e.get("author") for e in original["events"]], restored
            done(step)

            step = "state-tab"
            page.request.patch(f"{BASE}/apps/assistant/users/user/sessions/{session_id}",
                               data={"stateDelta": {"favourite_city": "Lisbon"}})
            page.goto(f"{BASE}/dev-ui/?app=assistant&userId=user&session={session_id}", wait_until="networkidle")
            page.get_by_role("tab", name="State").click()
            expect(page.get_by_text("Lisbon")).to_be_visible()
            done(step)

            step = "tool-call"
            script_model([reply([{"functionCall": {"name": "transfer_to_agent", "args": {"agent_name": "support"}}}]),
                          reply([{"text": "Support here: let us fix it."}])])
            page.goto(BASE + "/dev-ui/?app=dispatcher", wait_until="networkidle")
            page.fill("textarea", "My router is broken")
            page.keyboard.press("Enter")
            expect(page.get_by_text("Support here: let us fix it.")).to_be_visible()
            expect(page.get_by_text("transfer_to_agent").first).to_be_visible()
            done(step)

            step = "trace-tab"
            page.get_by_text("Traces", exact=True).click()
            expect(page.get_by_text("invocation", exact=True).first).to_be_visible()
            expect(page.get_by_text("call_llm").first).to_be_visible()
            done(step)
            page.get_by_text("Events", exact=True).click()

            step = "delete"
            sessions_before = page.request.get(f"{BASE}/apps/dispatcher/users/user/sessions").json()
            delete = page.get_by_role("button", name="Delete").first
            if not delete.is_visible():  # the session panel is still open after an import
                page.get_by_text("arrow_drop_down").nth(1).click()
            page.on("dialog", lambda d: d.accept())
            page.get_by_role("button", name="Delete").first.click()
            confirm = page.get_by_role("button", name="Delete")
            if confirm.count() > 0:
                confirm.last.click()
            page.wait_for_load_state("networkidle")
            page.wait_for_timeout(500)
            sessions_after = page.request.get(f"{BASE}/apps/dispatcher/users/user/sessions").json()
            assert len(sessions_after) == len(sessions_before) - 1, (sessions_before, sessions_after, imported)
            done(step)

            step = "model-error-2x"
            check_model_error_2x(page)
            done(step)

            step = "model-error-1x"
            check_model_error_1x(page)
            done(step)

            step = "eval-write-error"
            check_eval_write_error(page)
            done(step)

            step = "long-running-answer-2x"
            check_long_running_answer(page, run_bodies, "choice_2x", same=True)
            done(step)

            step = "long-running-answer-1x"
            check_long_running_answer(page, run_bodies, "choice_1x", same=False)
            done(step)

            step = "workflow-2x"
            workflow_2x(page)
            done(step)
        except Exception as e:  # noqa: BLE001 - report any failure with a screenshot
            page.screenshot(path=str(OUT_DIR / f"FAILED-{step}.png"))
            print(f"FAIL {step}: {e}", flush=True)
            browser.close()
            sys.exit(1)
        browser.close()


if __name__ == "__main__":
    main()
