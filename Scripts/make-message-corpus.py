#!/usr/bin/env python3
"""Writes Corpus/messages/: one file per payload and EXPECTED.jsonl, what each must decode to.

Files ending in .data hold a `data` string exactly (raw or base64 JSON, or junk); files ending in
.envelope.json hold one message envelope. EXPECTED.jsonl gives, per file, the kind lenient decoding must
report and the strict problems ("code@path") validation must report — written by hand from the spec
(shared/spec/message-formats.md), not from DeskKit's output. Run from the repository root.
"""
import base64, json, os

OUT = 'Corpus/messages'
os.makedirs(OUT, exist_ok=True)
expected = []


def j(obj):
    return json.dumps(obj, separators=(', ', ': '), ensure_ascii=False)  # servers write spaces


def data(name, text, kind, problems=(), **extra):
    raw = text.encode('utf-8') if isinstance(text, str) else text
    with open(f'{OUT}/{name}.data', 'wb') as f:
        f.write(raw)
    expected.append({'file': f'{name}.data', 'kind': kind, 'problems': list(problems), **extra})


def envelope(name, obj, kind, problems=(), customer=True, closed=False, raw=None):
    with open(f'{OUT}/{name}.envelope.json', 'wb') as f:
        f.write(raw if raw is not None else json.dumps(obj, ensure_ascii=False).encode('utf-8'))
    expected.append({'file': f'{name}.envelope.json', 'kind': kind, 'problems': list(problems),
                     'visible_to_customer': customer, 'ticket_closed': closed})


preview = {'type': 'SENDBIRD_DESK_URL_PREVIEW', 'body': {
    'url': 'https://sendbird.com/', 'site_name': 'Sendbird',
    'title': 'A Complete Chat Platform, Messaging and Chat SDK and API',
    'description': "Sendbird's chat, voice and video APIs and SDKs connect users through immersive, modern communication solutions...",
    'image': 'https://6cro14eml0v2yuvyx3v5j11j-wpengine.netdna-ssl.com/wp-content/uploads/sendbird_thumbnail.png'}}
ticket = {'id': 4021, 'channelName': 'Order #1138', 'channelUrl': 'sendbird_desk_agent_chat_4021',
          'status': 'ASSIGNED', 'status2': 'ACTIVE', 'priority': 'HIGH', 'info': '{"orderId": 1138}',
          'recentAssignment': {'agent': {'id': 77, 'displayName': 'Cindy', 'photoThumbnailUrl': 'https://example.com/c.png',
                                         'sendbirdId': 'agent-cindy'}, 'status': 'IN_PROGRESS', 'unreadCount': 2},
          'customer': {'id': 9, 'displayName': 'Ann', 'sendbirdId': 'cust-ann'},
          'customFields': [{'key': 'plan', 'value': 'gold'}], 'group': 3, 'firstResponseTime': 41,
          'issuedAt': '2021-03-04T05:06:07Z', 'updatedAt': 1614834367000,
          'relatedChannels': '[{"channel_url": "sendbird_desk_4020", "name": "Earlier order"}]',
          'proactiveChatCreatedBy': None}

# --- URL previews
data('url-preview', j(preview), 'url_preview')
data('url-preview-siteName', j({'type': 'SENDBIRD_DESK_URL_PREVIEW', 'body': {'url': 'https://a.example/', 'siteName': 'A', 'title': 'T'}}), 'url_preview')
data('url-preview-empty-strings', j({'type': 'SENDBIRD_DESK_URL_PREVIEW', 'body': {'url': 'https://a.example/', 'site_name': '', 'title': '', 'description': '', 'image': ''}}), 'url_preview')
data('url-preview-base64', base64.b64encode(j(preview).encode()).decode(), 'url_preview', encoding='base64')
urlsafe = base64.urlsafe_b64encode(j({**preview, 'body': {**preview['body'], 'title': 'Ünïcödé ~~~ ???'}}).encode()).decode().rstrip('=')
assert '-' in urlsafe or '_' in urlsafe
data('url-preview-base64url-unpadded', urlsafe, 'url_preview', encoding='base64+urlsafe+unpadded')
data('url-preview-base64-wrapped', base64.encodebytes(j(preview).encode()).decode(), 'url_preview', encoding='base64+wrapped+whitespace')
data('url-preview-whitespace', '\n  ' + j(preview) + '\t\n', 'url_preview', encoding='json+whitespace')
data('url-preview-bom', '\ufeff' + j(preview), 'url_preview', encoding='json+bom')
data('url-preview-base64-of-bom', base64.b64encode(('\ufeff' + j(preview)).encode()).decode(), 'url_preview', encoding='base64+bom')
# --- closure inquiry
for state in ('WAITING', 'CONFIRMED', 'DECLINED'):
    data(f'closure-{state.lower()}', j({'type': 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE', 'body': {'state': state, 'ticketId': 123}}), 'closure_inquiry')
data('closure-docs-example', j({'type': 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE', 'body': {'state': 'CONFIRMED'}}), 'closure_inquiry')
data('closure-legacy-type', j({'type': 'SENDBIRD_DESK_INQUIRE_CLOSE_TICKET', 'body': {'state': 'WAITING', 'ticketId': 5}}), 'closure_inquiry')
data('closure-ticket-id-string', j({'type': 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE', 'body': {'state': 'WAITING', 'ticketId': '123'}}), 'closure_inquiry')
# --- CSAT
csat = {'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 3,
        'customerSatisfactionComment': 'It was really helpful :)', 'ticketId': 123}}
data('csat-confirmed', j(csat), 'customer_satisfaction')
data('csat-waiting', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'WAITING', 'ticketId': 123}}), 'customer_satisfaction')
data('csat-status-key', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'status': 'CONFIRMED', 'customerSatisfactionScore': 5}}), 'customer_satisfaction')
data('csat-score-string', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': '4'}}), 'customer_satisfaction')
data('csat-comment-null', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 1, 'customerSatisfactionComment': None}}), 'customer_satisfaction')
data('csat-comment-empty', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 2, 'customerSatisfactionComment': ''}}), 'customer_satisfaction')
data('csat-docs-base64', base64.b64encode(j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 3, 'customerSatisfactionComment': 'It was really helpful :)'}}).encode()).decode(), 'customer_satisfaction', encoding='base64')
# --- system messages
data('system-assigned-by-system', j({'type': 'SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM', 'ticket': ticket}), 'system_message')
data('system-transferred-by-agent', j({'type': 'SYSTEM_MESSAGE_TICKET_TRANSFERRED_BY_AGENT', 'ticket': ticket,
     'transfer': {'fromAssignment': {'agent': {'id': 77}}, 'toAssignment': {'agent': {'id': 78}}, 'reason': 'shift ended'}}), 'system_message')
for t in ('SYSTEM_MESSAGE_TICKET_CLOSED_BY_CUSTOMER', 'SYSTEM_MESSAGE_TICKET_ACTIVE_TO_IDLE_BY_SYSTEM',
          'SYSTEM_MESSAGE_TICKET_PRIORITY_VALUE_UPDATED_BY_PLATFORM_API', 'TICKET_ASSIGN', 'TICKET_TRANSFER', 'TICKET_CLOSE',
          'SYSTEM_MESSAGE_TICKET_SOMETHING_NEW_BY_AGENT'):
    data('system-' + t.lower().replace('_', '-'), j({'type': t}), 'system_message')
# --- notifications and bots
for t in ('NOTIFICATION_WELCOME', 'NOTIFICATION_AWAY_AGENT', 'NOTIFICATION_ASSIGNMENT_DELAY', 'NOTIFICATION_NOT_OPERATING_HOUR',
          'NOTIFICATION_MANUAL_CLOSED', 'NOTIFICATION_AUTO_CLOSED', 'NOTIFICATION_PROACTIVE_CHAT'):
    data(t.lower().replace('_', '-'), j({'type': t}), 'notification')
data('bot-faq-answers', j({'type': 'SENDBIRD_DESK_BOT_MESSAGE_FAQ_ANSWERS', 'faq_file_id': 12, 'results': [
    {'category': 'Billing', 'question': 'How do I get a refund?', 'answer': 'Open Orders and press Refund.', 'keyword': 'refund',
     'url': 'https://help.example.com/refund', 'image_url': 'https://help.example.com/refund.png'}]}), 'bot_answers')
data('unknown-type', j({'type': 'ACME_LOYALTY_CARD', 'body': {'points': 120}}), 'unknown')
data('app-json-without-type', j({'orderId': 1138}), 'plain')
data('plain-text', 'just words', 'plain', encoding='text')
data('empty', '', 'plain', encoding='none')

# --- malformed and invalid
data('malformed-truncated', j(preview)[:60], 'malformed', ['invalid_json@$'])
data('malformed-trailing-garbage', j(csat) + ' }', 'malformed', ['trailing_garbage@$'])
data('malformed-base64-truncated-json', base64.b64encode(j(preview)[:50].encode()).decode(), 'malformed', ['invalid_json@$'])
data('malformed-wrong-types', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 'abc', 'ticketId': True}}),
     'malformed', ['wrong_type@$.body.customerSatisfactionScore', 'wrong_type@$.body.ticketId'])
data('malformed-url-not-string', j({'type': 'SENDBIRD_DESK_URL_PREVIEW', 'body': {'url': 5, 'title': ['x']}}),
     'malformed', ['wrong_type@$.body.url', 'wrong_type@$.body.title'])
data('malformed-body-array', j({'type': 'SENDBIRD_DESK_URL_PREVIEW', 'body': ['https://a.example/']}), 'malformed', ['wrong_type@$.body'])
data('malformed-missing-body', j({'type': 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE'}), 'malformed', ['missing_field@$.body'])
data('malformed-missing-url', j({'type': 'SENDBIRD_DESK_URL_PREVIEW', 'body': {'title': 'no url'}}), 'malformed', ['missing_field@$.body.url'])
data('malformed-type-number', j({'type': 7}), 'malformed', ['wrong_type@$.type'])
data('malformed-huge-ticket-id', '{"type": "SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE", "body": {"state": "WAITING", "ticketId": 99999999999999999999999}}',
     'malformed', ['number_too_large@$.body.ticketId'])
data('malformed-deep-nesting', '{"type": "X", "body": ' + '[' * 500 + ']' * 500 + '}', 'malformed', ['too_deep@$'])
data('malformed-invalid-utf8', b'{"type": "NOTIFICATION_WELCOME", "note": "caf\xe9"}', 'malformed', ['invalid_json@$'])
data('malformed-lone-surrogate', '{"type": "NOTIFICATION_WELCOME", "note": "\\ud800"}', 'malformed', ['invalid_json@$'])
data('malformed-control-character', '{"type": "NOTIFICATION_WELCOME", "note": "a\x01b"}', 'malformed', ['invalid_json@$'])
data('malformed-related-channels', j({'type': 'SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_AGENT', 'ticket': {'id': 1, 'relatedChannels': '[{'}}),
     'malformed', ['invalid_json@$.ticket.relatedChannels'])
data('csat-score-out-of-range', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 9}}),
     'customer_satisfaction', ['out_of_range@$.body.customerSatisfactionScore'])
data('csat-score-zero', j({'type': 'SENDBIRD_DESK_CUSTOMER_SATISFACTION', 'body': {'state': 'CONFIRMED', 'customerSatisfactionScore': 0}}),
     'customer_satisfaction', ['out_of_range@$.body.customerSatisfactionScore'])
data('closure-unknown-state', j({'type': 'SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE', 'body': {'state': 'MAYBE'}}), 'closure_inquiry', ['unknown_value@$.body.state'])
data('duplicate-keys', '{"type": "SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE", "body": {"state": "WAITING", "state": "CONFIRMED"}}',
     'closure_inquiry', ['duplicate_key@$.body.state'])
data('junk-base64-text', 'aGVsbG8gd29ybGQ=', 'plain', encoding='text')

# --- envelopes
admin = {'message_id': 40620745, 'type': 'ADMM', 'custom_type': 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE',
         'data': j({'type': 'SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM', 'ticket': ticket}),
         'message': 'The ticket is automatically assigned to Cindy.', 'created_at': 1614834367000}
envelope('admin-system-assigned', admin, 'system_message', customer=False)
envelope('admin-system-closed', {**admin, 'message_id': 40620746, 'data': j({'type': 'SYSTEM_MESSAGE_TICKET_CLOSED_BY_AGENT', 'ticket': ticket}),
         'message': 'The ticket was closed.'}, 'system_message', customer=False, closed=True)
envelope('admin-legacy-custom-type', {**admin, 'custom_type': 'ADMIN_MESSAGE_CUSTOM_TYPE', 'data': base64.b64encode(j({'type': 'TICKET_ASSIGN'}).encode()).decode()},
         'system_message', customer=False)
envelope('admin-notification-welcome', {'message_id': 5, 'type': 'ADMM', 'message': 'Welcome! How can we help?', 'data': j({'type': 'NOTIFICATION_WELCOME'})}, 'notification')
envelope('admin-notification-auto-closed', {'message_id': 6, 'type': 'ADMM', 'message': 'Closed after inactivity.', 'data': j({'type': 'NOTIFICATION_AUTO_CLOSED'})}, 'notification', closed=True)
envelope('admin-auto-event', {'message_id': 7, 'type': 'ADMM', 'custom_type': 'SENDBIRD:AUTO_EVENT_MESSAGE', 'message': 'Ann joined.', 'data': ''}, 'notification')
envelope('system-type-without-custom-type', {'message_id': 8, 'type': 'ADMM', 'message': 'x', 'data': j({'type': 'TICKET_TRANSFER'})}, 'system_message', customer=False)
envelope('rich-url-preview', {'message_id': 9, 'type': 'MESG', 'custom_type': 'SENDBIRD_DESK_RICH_MESSAGE', 'message': 'https://sendbird.com/', 'data': j(preview), 'created_at': 1}, 'url_preview')
envelope('rich-preview-original-custom-type', {'message_id': 10, 'type': 'MESG', 'custom_type': 'CHAT', 'message': 'https://sendbird.com/', 'data': base64.b64encode(j(preview).encode()).decode()}, 'url_preview')
envelope('rich-csat', {'message_id': 11, 'type': 'MESG', 'custom_type': 'SENDBIRD_DESK_RICH_MESSAGE', 'message': 'How did we do?', 'data': j(csat)}, 'customer_satisfaction')
envelope('bot-message', {'message_id': 12, 'type': 'MESG', 'custom_type': 'SENDBIRD_DESK_BOT_MESSAGE', 'message': 'Maybe this helps:',
         'data': j({'type': 'SENDBIRD_DESK_BOT_MESSAGE_FAQ_ANSWERS', 'faq_file_id': 1, 'results': []})}, 'bot_answers')
envelope('plain-user-message', {'message_id': 13, 'type': 'MESG', 'message': 'My order has not arrived', 'custom_type': '', 'data': '', 'created_at': 2}, 'plain')
envelope('plain-data-not-json', {'message_id': 14, 'type': 'MESG', 'message': 'hello', 'data': 'priority=high;source=web'}, 'plain')
envelope('file-message', {'message_id': 15, 'type': 'FILE', 'url': 'https://files.example/receipt.pdf', 'name': 'receipt.pdf', 'data': ''}, 'plain')
envelope('message-id-string', {'message_id': '16', 'type': 'MESG', 'message': 'id as text'}, 'plain')
envelope('rich-data-not-base64', {'message_id': 17, 'type': 'MESG', 'custom_type': 'SENDBIRD_DESK_RICH_MESSAGE', 'message': 'x', 'data': 'eyJ0eXBlIjo!!'},
         'malformed', ['invalid_base64@$.data'])
envelope('admin-data-text', {'message_id': 18, 'type': 'ADMM', 'custom_type': 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE', 'message': 'x', 'data': 'assigned'},
         'malformed', ['not_json@$.data'], customer=False)
envelope('data-is-object', {'message_id': 19, 'type': 'MESG', 'message': 'x', 'data': {'type': 'NOTIFICATION_WELCOME'}}, 'malformed', ['wrong_type@$.data'])
envelope('custom-type-too-long', {'message_id': 20, 'type': 'MESG', 'message': 'x', 'custom_type': 'C' * 129}, 'plain', ['too_long@$.custom_type'])
envelope('unknown-message-type', {'message_id': 21, 'type': 'BRDM', 'message': 'x'}, 'plain', ['unknown_value@$.type'])
envelope('huge-message-id', None, 'plain', ['number_too_large@$.message_id'], raw=b'{"message_id": 123456789012345678901234567890, "type": "MESG", "message": "x"}')
envelope('negative-created-at', {'message_id': 22, 'type': 'MESG', 'message': 'x', 'created_at': -5}, 'plain')
envelope('envelope-truncated', None, 'malformed', ['invalid_json@$'], raw=b'{"message_id": 23, "type": "MESG", "mess')
envelope('envelope-not-object', None, 'malformed', ['wrong_type@$'], raw=b'[1, 2, 3]')
envelope('envelope-empty', None, 'malformed', ['invalid_json@$'], raw=b'')
envelope('rich-csat-base64-whitespace', {'message_id': 24, 'type': 'MESG', 'custom_type': 'SENDBIRD_DESK_RICH_MESSAGE', 'message': 'x',
         'data': '  ' + base64.b64encode(j(csat).encode()).decode() + '\n'}, 'customer_satisfaction')

with open(f'{OUT}/EXPECTED.jsonl', 'w', encoding='utf-8') as f:
    for e in expected:
        f.write(json.dumps(e, ensure_ascii=False) + '\n')
print(f'{len(expected)} files written to {OUT}')
