"""Schemathesis hooks of the contract fuzz (apps/e2e/src/openapi-fuzz.e2e.spec.ts).

Webhook URLs (the public API's run, RIS_FUZZ_WEBHOOK_* set): a webhook
endpoint makes the webhook service send requests to its URL, and the fuzzer
must not make this machine send traffic anywhere but loopback. So every
valid `url` of POST /webhooks and PATCH /webhooks/{webhookId} gets the host
of the test's receiver, keeping its scheme, path, query and fragment: a
valid URL stays valid and an invalid one is sent as generated (to be
refused), so what each case tests is unchanged.

Dashboard sessions (the console's run, RIS_FUZZ_CONSOLE_URL set): the
identities sign in (the auth document's login endpoint) and send the
session cookie; a browser also sends the session's CSRF token with every
change, which a cookie login cannot carry, so it is added here (read from
GET /console/v1/session, as the dashboard reads it). A sign-out (DELETE
/console/v1/session) gets a session of its own, made for it here, so that
it ends that one and not the identity's: what it tests is unchanged, and
the rest of the run keeps its sessions. An OWNER may add any operator who
has an account by address (POST /console/v1/apps/{appId}/members), and the
fuzzer learns the identities' addresses from answers (a member list, an
invitation's `invitedBy`): adding one identity to the other's app would end
the isolation the run checks, so such an address is replaced by one of no
account (the case is then an invitation, as valid as before).

Runs before every request of every phase (a config `parameters` override
does not reach the coverage phase).
"""

import json
import os
import re

import requests
import schemathesis

PARTS = re.compile(r"^([A-Za-z]+://)[^/?#]*(.*)$", re.S)
WEBHOOK_WRITE = re.compile(r"/webhooks(/\{webhookId\})?$")

RECEIVER = os.environ.get("RIS_FUZZ_WEBHOOK_AUTHORITY")  # e.g. 127.0.0.1:40123
VALID_URL = re.compile(os.environ["RIS_FUZZ_WEBHOOK_URL_PATTERN"]) if RECEIVER else None
MAX_URL_LENGTH = int(os.environ.get("RIS_FUZZ_WEBHOOK_URL_MAX_LENGTH", "0"))

CONSOLE_URL = os.environ.get("RIS_FUZZ_CONSOLE_URL")  # e.g. http://127.0.0.1:40123/console/v1
CONSOLE_PASSWORDS = json.loads(os.environ.get("RIS_FUZZ_CONSOLE_LOGINS", "{}"))  # email -> password
SESSION_COOKIE = "ris_session"
# Session cookie -> the session answer (email and csrfToken), read once per session.
_sessions = {}
MEMBERS = re.compile(r"^/console/v1/apps/\{appId\}/members$")
STRANGER = "not-an-identity@example.test"


def _is_valid(url):
    # fullmatch: Python's `$` would also take a trailing newline, which the gateway refuses.
    return VALID_URL.fullmatch(url) is not None and len(url) <= MAX_URL_LENGTH


def _keep_webhooks_on_loopback(case):
    if case.method.upper() not in ("POST", "PATCH") or not WEBHOOK_WRITE.search(case.operation.path):
        return
    body = case.body
    if not isinstance(body, dict) or not isinstance(body.get("url"), str):
        return
    url = body["url"]
    if not _is_valid(url):
        return
    scheme, rest = PARTS.match(url).groups()
    local = f"{scheme}{RECEIVER}{rest}"
    if not _is_valid(local):
        # Longer than allowed once the host changed: the receiver's root is as valid.
        local = f"{scheme}{RECEIVER}/"
    body["url"] = local


def _session(cookie):
    """The session answer of a cookie (None when it has no live session)."""
    if cookie not in _sessions:
        res = requests.get(f"{CONSOLE_URL}/session", cookies={SESSION_COOKIE: cookie}, timeout=10)
        if res.status_code != 200:
            return None
        _sessions[cookie] = res.json()
    return _sessions[cookie]


def _sign_in(email):
    res = requests.post(f"{CONSOLE_URL}/session", json={"email": email, "password": CONSOLE_PASSWORDS[email]}, timeout=10)
    res.raise_for_status()
    return res.cookies[SESSION_COOKIE], res.json()


def _keep_identities_apart(case):
    if case.method.upper() != "POST" or not MEMBERS.match(case.operation.path):
        return
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("email"), str) and body["email"].lower() in CONSOLE_PASSWORDS:
        body["email"] = STRANGER


def _act_as_the_dashboard(case):
    cookies = case.cookies or {}
    cookie = cookies.get(SESSION_COOKIE)
    if not cookie or case.method.upper() in ("GET", "HEAD", "OPTIONS"):
        return
    session = _session(cookie)
    if session is None:
        return
    if case.method.upper() == "DELETE" and case.operation.path == "/console/v1/session":
        cookie, session = _sign_in(session["operator"]["email"])
        case.cookies[SESSION_COOKIE] = cookie
    case.headers = case.headers or {}
    case.headers["X-CSRF-Token"] = session["csrfToken"]


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if RECEIVER:
        _keep_webhooks_on_loopback(case)
    if CONSOLE_URL:
        _keep_identities_apart(case)
        _act_as_the_dashboard(case)
