# schemathesis hooks for Scripts/api-fuzz.sh: signs every generated webhook body as Sendbird would (hex
# HMAC-SHA256 keyed with the API token), so the fuzzer reaches past the signature check into the webhook route,
# and half the image proxy's URLs as deskkit serve would, so it reaches the proxy's fetch.
import ast
import base64
import hashlib
import hmac
import json
import os
import threading
import urllib.parse

import schemathesis

# Hypothesis describes a strategy's filter by parsing its module's source with `ast`, in each of schemathesis' worker
# threads at once. CPython 3.11 counts the AST constructor's depth in one place per interpreter, not per thread, so
# two parses at once can end with "AST constructor recursion depth mismatch" (a SystemError; see
# python/cpython#106905), which schemathesis reports as a runtime error of the operation it was generating for (seen
# on GET /v1/jobs in 2 of 5 runs). One parse at a time.
_parse = ast.parse
_parsing = threading.Lock()


def _one_parse_at_a_time(*args, **kwargs):
    with _parsing:
        return _parse(*args, **kwargs)


ast.parse = _one_parse_at_a_time

TOKEN = os.environ["DESKKIT_FUZZ_TOKEN"].encode()


@schemathesis.hook
def before_call(context, case, kwargs):
    sign_webhook(case)
    sign_image(case)


def sign_webhook(case):
    # A case without a body (NotSet) or a null one goes unsigned: the check refuses it (401).
    if case.path != "/webhooks/sendbird" or case.body is None or type(case.body).__name__ == "NotSet":
        return
    # A case the fuzzer made without the header (to see it refused) stays without it.
    if not any(name.lower() == "x-sendbird-signature" for name in (case.headers or {})):
        return
    # The bytes sent are the bytes signed. A body already serialized goes as it is; a JSON value is left for
    # the transport to serialize (requests' `json=`: json.dumps with its default separators, ASCII, no NaN),
    # and signed as that serialization. (Replacing it with bytes made schemathesis send other bytes than
    # those signed: every webhook was a 401 and the route behind the check was never fuzzed.)
    if isinstance(case.body, bytes):
        body = case.body
    else:
        body = json.dumps(case.body, allow_nan=False).encode("utf-8")
    case.headers = dict(case.headers or {})
    case.headers["x-sendbird-signature"] = hmac.new(TOKEN, body, hashlib.sha256).hexdigest()


IMAGE_KEY = os.environ.get("DESKKIT_FUZZ_IMAGE_KEY", "").encode()


def _b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign_image(case):
    # Half the image proxy's cases are signed, so the fuzzer reaches past the signature into the fetch: the
    # generated `url` becomes an image URL (made an http one when it is not), signed as deskkit serve signs.
    if not IMAGE_KEY or not case.path.startswith("/images/") or not case.path_parameters:
        return
    raw = str(case.path_parameters.get("url", ""))
    if hashlib.sha256(raw.encode("utf-8", "surrogatepass")).digest()[0] % 2:
        return
    url = raw if raw.startswith(("http://", "https://")) else "http://127.0.0.1:9/" + urllib.parse.quote(raw)
    data = url.encode("utf-8", "surrogatepass")
    case.path_parameters = {
        "signature": _b64url(hmac.new(IMAGE_KEY, data, hashlib.sha256).digest()),
        "url": _b64url(data),
    }
