"""Schemathesis hooks of the contract fuzz (apps/e2e/src/openapi-fuzz.e2e.spec.ts).

A webhook endpoint makes the webhook service send requests to its URL, and
the fuzzer must not make this machine send traffic anywhere but loopback.
So every valid `url` of POST /webhooks and PATCH /webhooks/{webhookId} gets
the host of the test's receiver, keeping its scheme, path, query and
fragment: a valid URL stays valid and an invalid one is sent as generated
(to be refused), so what each case tests is unchanged. Runs before every
request of every phase (a config `parameters` override does not reach the
coverage phase).
"""

import os
import re

import schemathesis

RECEIVER = os.environ["RIS_FUZZ_WEBHOOK_AUTHORITY"]  # e.g. 127.0.0.1:40123
VALID_URL = re.compile(os.environ["RIS_FUZZ_WEBHOOK_URL_PATTERN"])
MAX_URL_LENGTH = int(os.environ["RIS_FUZZ_WEBHOOK_URL_MAX_LENGTH"])
PARTS = re.compile(r"^([A-Za-z]+://)[^/?#]*(.*)$", re.S)
WEBHOOK_WRITE = re.compile(r"/webhooks(/\{webhookId\})?$")


def _is_valid(url):
    # fullmatch: Python's `$` would also take a trailing newline, which the gateway refuses.
    return VALID_URL.fullmatch(url) is not None and len(url) <= MAX_URL_LENGTH


@schemathesis.hook
def before_call(ctx, case, **kwargs):
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
