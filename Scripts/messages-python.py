#!/usr/bin/env python3
"""The Python reference for `deskkit-bench messages`: the same work with orjson and pybase64.

For every line of the message mix (written by `deskkit-bench messages-file FILE`): parse the envelope,
find `data` (raw JSON, or base64 JSON after stripping white space and a BOM), parse it, classify it by
`data.type` / `custom_type`, read the typed fields DeskKit reads (preview body, CSAT, closure, the
system message's ticket with its assignment and agent, custom fields and customer) and decide whether a
customer sees the message. Prints the best of five passes, like the Swift benchmark.

    pip install orjson pybase64
    python3 Scripts/messages-python.py /tmp/messages.jsonl
"""
import sys
import time

import orjson
import pybase64

ADMIN = ("SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", "ADMIN_MESSAGE_CUSTOM_TYPE")
LEGACY_SYSTEM = ("TICKET_ASSIGN", "TICKET_TRANSFER", "TICKET_CLOSE")


def is_system(t):
    return t.startswith("SYSTEM_MESSAGE_") or t in LEGACY_SYSTEM


def integer(v):
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            return None
    return None


def text(o, key):
    v = o.get(key)
    return v if isinstance(v, str) else None


def assignment(a):
    if not isinstance(a, dict):
        return None
    agent = a.get("agent")
    agent = (
        (integer(agent.get("id")), text(agent, "displayName"), text(agent, "photoThumbnailUrl"), text(agent, "sendbirdId"))
        if isinstance(agent, dict) else None)
    return (agent, text(a, "status"), integer(a.get("unreadCount")))


def ticket(t):
    if not isinstance(t, dict):
        return None
    fields = [(f["key"], f.get("value")) for f in t.get("customFields") or [] if isinstance(f, dict) and "key" in f]
    customer = t.get("customer")
    return (
        integer(t.get("id")), text(t, "channelName"), text(t, "channelUrl"), text(t, "status"), text(t, "status2"),
        text(t, "priority"), text(t, "info"), assignment(t.get("recentAssignment")),
        dict(customer) if isinstance(customer, dict) else None, fields, integer(t.get("group")),
        integer(t.get("firstResponseTime")), text(t, "issuedAt"), t.get("updatedAt"))


def decode(line):
    envelope = orjson.loads(line)
    if not isinstance(envelope, dict):
        return "malformed", True
    custom_type = envelope.get("custom_type")
    fields = (envelope.get("type"), integer(envelope.get("message_id")), envelope.get("message"),
              integer(envelope.get("created_at")))
    data = envelope.get("data")
    payload = None
    if isinstance(data, str):
        s = data.strip()
        if s.startswith("\ufeff"):
            s = s[1:].strip()
        if s[:1] in ("{", "["):
            payload = orjson.loads(s)
        elif s:
            try:
                payload = orjson.loads(pybase64.b64decode(s, validate=True))
            except ValueError:
                payload = None
    kind, data_type, value = "plain", None, None
    if isinstance(payload, dict) and isinstance(payload.get("type"), str):
        data_type = payload["type"]
        body = payload.get("body") if isinstance(payload.get("body"), dict) else {}
        if data_type == "SENDBIRD_DESK_URL_PREVIEW":
            kind = "url_preview"
            value = (text(body, "url"), text(body, "site_name") or text(body, "siteName"), text(body, "title"),
                     text(body, "description"), text(body, "image"))
        elif data_type == "SENDBIRD_DESK_CUSTOMER_SATISFACTION":
            kind = "customer_satisfaction"
            value = (text(body, "state") or text(body, "status"), integer(body.get("customerSatisfactionScore")),
                     text(body, "customerSatisfactionComment"), integer(body.get("ticketId")))
        elif data_type in ("SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE", "SENDBIRD_DESK_INQUIRE_CLOSE_TICKET"):
            kind = "closure_inquiry"
            value = (text(body, "state"), integer(body.get("ticketId")))
        elif is_system(data_type) or custom_type in ADMIN:
            kind = "system_message"
            value = (data_type, ticket(payload.get("ticket")), payload.get("transfer"))
        elif data_type.startswith("NOTIFICATION_"):
            kind = "notification"
            value = data_type
        else:
            kind = "unknown"
    visible = not (custom_type in ADMIN or (data_type is not None and is_system(data_type)))
    return kind, visible, fields, value


def main():
    with open(sys.argv[1], "rb") as f:
        lines = f.read().splitlines()
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        visible = 0
        for line in lines:
            visible += decode(line)[1]
        best = min(best, time.perf_counter() - start)
    size = sum(len(line) + 1 for line in lines)
    print(f"python (orjson {orjson.__version__}, pybase64 {pybase64.__version__}): {len(lines)} envelopes, "
          f"best of 5: {len(lines) / best:,.0f} messages/s, {size / best / 1e6:.1f} MB/s on one core "
          f"(visible to customers: {visible})")


if __name__ == "__main__":
    main()
