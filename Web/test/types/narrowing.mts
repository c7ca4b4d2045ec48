// Compiled by Scripts/check-web.sh with `tsc --strict --noEmit` as a widget's code would import the package: a
// decoded message narrowed by its kind types its value, and every kind is handled (the switch is exhaustive); a
// widget draws messages with renderMessage and hands the typed answers of `deskkit-answer` to the Desk SDK.
import { load, DeskKitError, ANSWER_EVENT } from 'deskkit';
import type { DecodedMessage, DeskKit, DeskKitAnswer, SDKMessage } from 'deskkit';

function describe(m: DecodedMessage): string {
  switch (m.kind) {
    case 'url_preview': return `${m.value.title ?? m.value.url} ${m.value.imageWidth ?? 0}x${m.value.imageHeight ?? 0}`;
    case 'closure_inquiry': return `${m.value.state} ${m.value.ticketId ?? ''}`;
    case 'customer_satisfaction': return `${m.value.score ?? '-'} ${m.value.comment ?? ''}`;
    case 'system_message': return `${m.value.type} ${m.value.actor ?? ''} ${m.value.ticket?.recentAssignment?.agent?.displayName ?? ''}`;
    case 'notification': return m.value.type ?? '';
    case 'bot_answers': return m.value.results.map((r) => r.answer ?? r.imageUrl ?? '').join();
    case 'plain': return String(m.value);
    case 'unknown': return `${m.value.type} ${JSON.stringify(m.value.data)}`;
    case 'malformed': return `${m.value.data} ${m.error?.path}`;
    default: {
      const never: never = m;
      return never;
    }
  }
}

class AdminMessage implements SDKMessage {
  get messageId() { return 9; }
  get messageType() { return 'admin' as const; }
  get customType() { return 'SENDBIRD_DESK_ADMIN_MESSAGE_CUSTOM_TYPE'; }
  get data() { return ''; }
  get message() { return 'Internal note'; }
}

export async function widget(list: HTMLElement): Promise<void> {
  const dk: DeskKit = await load();
  for (const message of [new AdminMessage(), { message_id: 1, type: 'MESG', message: 'see example.com', data: '' }]) {
    try {
      if (!dk.visibility(message, 'customer').visible) continue;
      const decoded = dk.decodeMessage(message);
      const item = document.createElement('li');
      item.append(dk.renderText(decoded.messageId === null ? '' : describe(decoded), { linkOptions: { emails: false } }));
      const card = dk.renderPreview(message, {
        imageURL: (url) => new URL(`/images/${encodeURIComponent(url)}`, location.href), maxTitle: 80, imageLabel: 'Bild' });
      const decisions = dk.linkCard(message, { maxTitle: 80 });
      if (decisions?.title) console.log(decisions.title.dir, decisions.image?.alt ?? 'Bild', dk.safeURL(decisions.link));
      if (card) item.append(card);
      list.append(item);
    } catch (error) {
      if (error instanceof DeskKitError) console.warn(error.problems.map((p) => p.path));
      else throw error;
    }
  }
  const data = dk.decodeData('{"type":"SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE","body":{"state":"WAITING","ticketId":4021}}');
  if (data.kind === 'closure_inquiry') console.log(data.value.ticketId, data.problems.length);
}

/** A widget's list: every message drawn by renderMessage, its answers handed to the Desk SDK (typed by kind). */
export function answeringWidget(dk: DeskKit, list: HTMLElement, messages: SDKMessage[],
  desk: { confirmEndOfChat(id: number, answer: 'yes' | 'no'): void; submitFeedback(id: number, score: number, comment: string): void }) {
  for (const message of messages) {
    const element: HTMLElement | null = dk.renderMessage(message, { audience: 'customer', language: 'ar', emailLinks: false });
    if (element) list.append(element);
  }
  list.addEventListener(ANSWER_EVENT, (event) => {
    const answer: DeskKitAnswer = event.detail;
    if (answer.messageId === null) return;
    if (answer.kind === 'closure_inquiry') desk.confirmEndOfChat(answer.messageId, answer.answer);
    else desk.submitFeedback(answer.messageId, answer.answer.score, answer.answer.comment ?? '');
  });
  console.log(dk.safeMailto('mailto:help@example.com'));
}
