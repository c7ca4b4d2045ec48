# schemathesis hooks for Scripts/api-fuzz.sh: signs every generated webhook body as Sendbird would (hex
# HMAC-SHA256 keyed with the API token), so the fuzzer reaches past the signature check into the webhook route.
import hashlib
import hmac
import json
import os

import schemathesis

TOKEN = os.environ["DESKKIT_FUZZ_TOKEN"].encode()


@schemathesis.hook
def before_call(context, case, kwargs):
    # A case without a body (NotSet) or a null one goes unsigned: the check refuses it (401).
    if case.path != "/webhooks/sendbird" or case.body is None or type(case.body).__name__ == "NotSet":
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
