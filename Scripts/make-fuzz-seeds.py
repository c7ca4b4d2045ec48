#!/usr/bin/env python3
"""Writes the hand-made seeds of the fuzz targets into Corpus/<target>/seed-*.

Findings of the fuzzers (minimised crashes and violations) are added next to them by hand, named
finding-*, and never rewritten by this script. Run from the repository root."""
import base64, glob, json, os, random

root = os.path.join(os.path.dirname(__file__), "..")
corpus = os.path.join(root, "Corpus")


def write(target, name, data):
    folder = os.path.join(corpus, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


for old in glob.glob(os.path.join(corpus, "*", "seed-*")):
    os.remove(old)

# message-data: the payload corpus is a seed folder already; add the shapes it lacks.
preview = {"type": "SENDBIRD_DESK_URL_PREVIEW", "body": {"url": "https://example.com/a", "site_name": "Example",
           "title": "A title", "description": "Some words", "image": "https://example.com/i.png"}}
csat = {"type": "SENDBIRD_DESK_CUSTOMER_SATISFACTION", "body": {"state": "CONFIRMED", "customerSatisfactionScore": 4,
        "customerSatisfactionComment": "ok"}}
text = json.dumps(preview)
write("message-data", "preview-escaped-unicode", json.dumps(preview, ensure_ascii=True).replace("A title", "\\u00c9t\\u00e9 \\ud83d\\ude00"))
write("message-data", "preview-base64-crlf", "\r\n".join(base64.b64encode(text.encode()).decode()[i:i + 20] for i in range(0, 200, 20)))
write("message-data", "csat-numbers", json.dumps(csat).replace("4", "4.0e0"))
write("message-data", "nested-arrays", '{"type":"X","body":[[[[[[[[{"a":[1,-2,3.5e-7,true,false,null,"\\t"]}]]]]]]]]}')
write("message-data", "csat-base64url", base64.urlsafe_b64encode(json.dumps(csat).encode()).decode().rstrip("="))

# envelope: messages of every kind, some odd shapes.
for i, path in enumerate(sorted(glob.glob(os.path.join(corpus, "messages", "*.data")))[:30]):
    data = open(path, "rb").read().decode("utf-8", "replace")
    kind = ["MESG", "ADMM", "FILE"][i % 3]
    custom = ["", "SENDBIRD_DESK_RICH_MESSAGE", "SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE", None][i % 4]
    env = {"message_id": 1000 + i, "type": kind, "message": "text %d https://example.com/%d" % (i, i), "data": data,
           "created_at": 1700000000000 + i}
    if custom is not None:
        env["custom_type"] = custom
    write("envelope", os.path.basename(path).replace(".data", ".json"), json.dumps(env))
write("envelope", "ids-as-strings.json", '{"message_id":"12","type":"MESG","data":null,"created_at":"17"}')
write("envelope", "not-an-object.json", '[{"message_id":1}]')

# validate: lines of every shape validate reads.
lines = [json.dumps(preview), json.dumps(json.dumps(csat)), base64.b64encode(json.dumps(csat).encode()).decode(),
         '{"type":"MESG","custom_type":"' + "x" * 130 + '","data":"{}"}', '{"body":{"state":"NOPE"},"type":"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE"}',
         '{"a":1,"a":2}', '"not base64 !"', "", "{\"type\":\"SENDBIRD_DESK_CUSTOMER_SATISFACTION\",\"body\":{\"state\":\"CONFIRMED\",\"customerSatisfactionScore\":\"9\"}}",
         '{"message_id": 99999999999999999999999, "type": "ADMM"}']
for i, line in enumerate(lines):
    write("validate", "line-%02d" % i, line)

# links: chat lines from the conformance suites, sampled.
random.seed(7)
texts = []
for path in sorted(glob.glob(os.path.join(root, "Tests", "DeskKitLinksTests", "Fixtures", "*.jsonl"))):
    cases = [json.loads(l)["text"] for l in open(path, encoding="utf-8") if l.strip() and "text" in json.loads(l)]
    texts += random.sample(cases, min(12, len(cases)))
texts += ["Mail ann@example.com or see www.example.co.uk/a_(b)?c=d#e, 東京.jp/パス, http://[::1]:8080/x",
          "xn--bcher-kva.example and bücher.example/ä and https://t.co/abc123",
          "((https://example.com/a)). <http://example.com/b> \"https://example.com/c\""]
for i, t in enumerate(texts):
    write("links", "text-%03d" % i, t)

# extract: two choice bytes, then a page (the OpenGraph fixtures are a seed folder of their own).
write("extract", "no-head", b"\x00\x05<title>t</title><p>body <img src=/a.png> text</p>")
write("extract", "meta-charset-late", b"\x10\x09<html><head>" + b"<!-- pad -->" * 120 + b"<meta charset=koi8-r><title>\xf0\xd2\xc9</title></head>")

# address: hosts, raw bytes, URLs.
hosts = ["127.0.0.1", "0x7f.1", "0177.0.0.01", "2130706433", "1.2.3", "[::ffff:10.0.0.1]", "::ffff:7f00:1", "fe80::1%eth0",
         "64:ff9b::8.8.8.8", "2001:db8::", "8.8.8.8", "2606:4700::1111", "0x", "1.2.3.4.5", "256.0.0.1", "00000000000000001.2"]
for i, h in enumerate(hosts):
    write("address", "host-%02d" % i, h)
for i, raw in enumerate([bytes([10, 0, 0, 1]), bytes([8, 8, 8, 8]), bytes(16), bytes([0] * 10 + [255, 255, 127, 0, 0, 1]),
                         bytes([0x20, 0x01, 0x0d, 0xb8] + [0] * 12), bytes([0x2a, 0x00, 0x14, 0x50] + [1] * 12)]):
    write("address", "raw-%02d" % i, raw)
for i, u in enumerate(["http://example.com", "https://user:pw@[::1]:8443/a?b#c", "HTTP://EXAMPLE.com.:80/", "https://bücher.example/ä",
                       "http://a:0/", "http://a:65536/", "https://example.com?x", "ftp://example.com/", "http://%41.com/"]):
    write("address", "url-%02d" % i, u)

# webhooks: odd bodies beside the real ones.
write("webhooks", "empty-object", "{}")
sendbird = {"category": "group_channel:message_send", "type": "MESG", "app_id": "APP", "custom_type": "",
            "sender": {"user_id": "u1", "nickname": "Ann"}, "channel": {"channel_url": "sendbird_group_channel_1", "name": "n"},
            "payload": {"message_id": 42, "message": "see https://example.com/a", "custom_type": "", "data": "", "created_at": 1700000000000}}
write("webhooks", "sendbird-message-send", json.dumps(sendbird))
sendbird["category"] = "group_channel:message_update"
sendbird["payload"]["data"] = json.dumps(preview)
write("webhooks", "sendbird-message-update", json.dumps(sendbird))
write("webhooks", "sendbird-other-category", '{"category": "group_channel:join", "members": [], "channel": {"channel_url": "x"}}')
write("webhooks", "form-auth", "user_id=u%20ser&security_key=k%2Bey&user_id=dup")
write("webhooks", "pyrus-types-wrong", '{"ticket_id":"x","token":[],"comment":{"attachments":{}},"created_at":-1}')
write("webhooks", "livetex-unknown", '{"version":"9","platform":"fax","to":"x","text":"\\u0000"}')
