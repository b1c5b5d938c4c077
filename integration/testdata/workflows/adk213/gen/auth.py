"""Node auth_config: adk_request_credential interrupt and three resume formats; require_confirmation."""
from fastapi.openapi.models import APIKey, APIKeyIn
from google.genai import types
from google.adk.agents.context import Context
from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes
from google.adk.auth.auth_handler import AuthHandler
from google.adk.auth.auth_tool import AuthConfig
from google.adk.workflow import Workflow
from google.adk.workflow._node import node

from rec import fr_content, observe, request_input_ids, run_turns, user_text


def api_key_config():
    return AuthConfig(auth_scheme=APIKey(name="x-api-key", **{"in": APIKeyIn.header}),
                      raw_auth_credential=AuthCredential(auth_type=AuthCredentialTypes.API_KEY, api_key=""))


def oauth_config():
    return AuthConfig(auth_scheme=APIKey(name="x-api-key", **{"in": APIKeyIn.header}),
                      raw_auth_credential=AuthCredential(auth_type=AuthCredentialTypes.OAUTH2))


def auth_wf(cfg):
    @node(auth_config=cfg, rerun_on_resume=True)
    async def call_api(node_input, ctx: Context):
        observe("call_api.node_input", node_input)
        cred = AuthHandler(cfg).get_auth_response(ctx.state)
        observe("call_api.credential", cred)
        yield {"has_credential": cred is not None}

    return Workflow(name="auth_wf", edges=[("START", call_api)])


def resume_credential(response):
    def build(recs):
        iid = request_input_ids(recs[-1]["events"], "adk_request_credential")[0]
        return fr_content("adk_request_credential", iid, response)
    return build


def confirm_wf():
    @node(require_confirmation=True)
    def delete_file(path: str = "reports/old.txt"):
        observe("delete_file.path", path)
        return {"deleted": path}

    return Workflow(name="confirm_wf", edges=[("START", delete_file)])


async def run():
    kw = {"invocation_ids": True}
    await run_turns("s6e3_auth_full_authconfig", agent=auth_wf(api_key_config()), turns=[user_text("call it"), resume_credential({
        "auth_scheme": {"type": "apiKey", "name": "x-api-key", "in": "header"},
        "exchanged_auth_credential": {"auth_type": "apiKey", "api_key": "sk-test-123"}})], **kw)
    await run_turns("s6e3_auth_plain_string", agent=auth_wf(api_key_config()), turns=[user_text("call it"), resume_credential({"result": "sk-test-456"})], **kw)
    await run_turns("s6e3_auth_credential_dict", agent=auth_wf(oauth_config()), turns=[user_text("call it"), resume_credential(
        {"auth_type": "oauth2", "oauth2": {"access_token": "tok-abc"}})], **kw)
    await run_turns("s6e3_auth_malformed", agent=auth_wf(api_key_config()), turns=[user_text("call it"), resume_credential({"foo": 1})], **kw)
    await run_turns("node_require_confirmation_yes", agent=confirm_wf(), turns=[user_text("go"), lambda recs: fr_content(
        "adk_request_input", request_input_ids(recs[-1]["events"])[0], {"confirmed": True})], **kw)
    await run_turns("node_require_confirmation_no", agent=confirm_wf(), turns=[user_text("go"), lambda recs: fr_content(
        "adk_request_input", request_input_ids(recs[-1]["events"])[0], {"confirmed": False})], **kw)
