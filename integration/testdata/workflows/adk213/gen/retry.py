"""Node retry: RetryConfig, delays asked of asyncio.sleep, exhausted attempts."""
import asyncio

from google.adk.platform import _random as platform_random
from google.adk.workflow import RetryConfig, Workflow
from google.adk.workflow._node import node

from rec import observe, run_turns, user_text

SLEEPS: list = []
UNIFORM: list = []
_real_sleep = asyncio.sleep


async def _fake_sleep(delay, *a, **k):
    SLEEPS.append(delay)
    await _real_sleep(0)


class _MidRandom:
    """uniform(a, b) returns the midpoint (0 offset for symmetric jitter)."""

    def uniform(self, a, b):
        UNIFORM.append([a, b])
        return (a + b) / 2


def build(name, cfg, fail_times, exc=ValueError):
    calls = {"n": 0}

    async def flaky(node_input):
        calls["n"] += 1
        observe("flaky.attempt", calls["n"])
        if calls["n"] <= fail_times:
            raise exc(f"boom {calls['n']}")
        return {"ok": True, "attempts": calls["n"]}

    flaky.__name__ = "flaky"
    kw = {"retry_config": cfg} if cfg is not None else {}
    n = node(flaky, **kw)

    @node
    def after(node_input):
        observe("after.node_input", node_input)

    return Workflow(name=name, edges=[("START", n, after)])


async def _run(scenario, wf):
    SLEEPS.clear(); UNIFORM.clear()
    asyncio.sleep = _fake_sleep
    rng = _MidRandom()
    platform_random.set_random_provider(lambda: rng)
    try:
        await run_turns(scenario, agent=wf, turns=[user_text("go")],
                        extra={"sleep_delays": SLEEPS, "random_uniform_calls": UNIFORM})
    finally:
        asyncio.sleep = _real_sleep
        platform_random.reset_random_provider()


async def run():
    await _run("retry_success", build("retry_wf", RetryConfig(max_attempts=3, initial_delay=0.5, backoff_factor=2.0), 2))
    await _run("retry_success_nojitter", build("retry_wf", RetryConfig(max_attempts=3, initial_delay=0.5, backoff_factor=3.0, jitter=0.0), 2))
    await _run("retry_exhausted", build("retry_wf", RetryConfig(max_attempts=3, initial_delay=0.5, jitter=0.0), 5))
    await _run("retry_not_in_exceptions", build("retry_wf", RetryConfig(max_attempts=3, exceptions=["KeyError"]), 5))
    await _run("retry_subclass_in_exceptions", build("retry_wf", RetryConfig(max_attempts=2, exceptions=["LookupError"], jitter=0.0), 1, KeyError))
    await _run("retry_defaults", build("retry_wf", RetryConfig(), 1))
    await _run("retry_none", build("retry_wf", None, 1))
    await _run("retry_max_delay", build("retry_wf", RetryConfig(max_attempts=4, initial_delay=10, max_delay=15, backoff_factor=2.0), 3))
