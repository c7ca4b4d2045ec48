/** A link found in chat text. */
export interface Link {
  /** The link exactly as written: `text.slice(start, end)`. */
  text: string;
  /** The normalised address: `https://` added to bare domains and `//` links, `mailto:` to e-mail addresses. */
  href: string;
  /** `href` in ASCII: IDN hosts in punycode, other non-ASCII characters percent-encoded. */
  asciiHref: string;
  kind: 'url' | 'email';
  /** Where the link starts in the text, in UTF-16 code units (what JavaScript strings index). */
  start: number;
  /** Where it ends (exclusive), in UTF-16 code units. */
  end: number;
}

/** What counts as a link; each left out takes its default. */
export interface LinkOptions {
  /** Domains written without a scheme (`example.com/a`); default true. */
  bareDomains?: boolean;
  /** E-mail addresses; default true. */
  emails?: boolean;
  /** Bare IPv4 addresses without a scheme; default false. */
  ipHosts?: boolean;
  /** Any RFC 3986 scheme (`file:///x`, `git:host/path`), not only http, https and ftp; default false. */
  anyScheme?: boolean;
  /** A known top-level domain after a scheme too; default false. */
  strictHosts?: boolean;
  /** Protocol-relative `//host/path` links; default true. */
  protocolRelative?: boolean;
  /** Keep `|` in paths, as Twitter does; default false. */
  pipesInPaths?: boolean;
  /** `localhost:PORT` written without a scheme; default false. */
  localhost?: boolean;
  /** E-mail addresses whose domain has no known top-level domain; default false. */
  anyEmailDomain?: boolean;
  /** Only what is written with a scheme; default false. */
  requireScheme?: boolean;
}

/** A problem found in a message or payload, with the JSON path of where it is. */
export interface Problem {
  code: string;
  path: string;
  message: string;
}

/** A string union that still takes values this version does not name (they are kept as written). */
type Open<T extends string> = T | (string & {});

/** The `SENDBIRD_DESK_URL_PREVIEW` payload: what a client needs to draw a link card. */
export interface URLPreviewValue {
  /** The page. Link to it through `renderPreview`, which admits http(s) only. */
  url: string;
  siteName: string | null;
  title: string | null;
  description: string | null;
  /** The image's URL, as the payload has it. */
  image: string | null;
  /** The image's pixel size, when the enrichment probed it (so a card keeps its height while the image loads). */
  imageWidth?: number;
  imageHeight?: number;
}

/** `SENDBIRD_DESK_INQUIRE_TICKET_CLOSURE`: the agent asks the customer to close the ticket. */
export interface ClosureInquiryValue {
  state: Open<'WAITING' | 'CONFIRMED' | 'DECLINED'>;
  ticketId: number | null;
}

/** `SENDBIRD_DESK_CUSTOMER_SATISFACTION`: the rating asked for and given. */
export interface CustomerSatisfactionValue {
  state: Open<'WAITING' | 'CONFIRMED'>;
  /** 1 to 5 (a value out of range is kept, with a problem). */
  score: number | null;
  comment: string | null;
  ticketId: number | null;
}

/** The types of Desk's system messages (`data.type`); agents see them, customers do not. */
export type SystemMessageType = Open<
  | 'TICKET_ASSIGN' | 'TICKET_TRANSFER' | 'TICKET_CLOSE'
  | 'SYSTEM_MESSAGE_TICKET_ACTIVE_TO_IDLE_BY_SYSTEM' | 'SYSTEM_MESSAGE_TICKET_ACTIVE_TO_IDLE_BY_AGENT'
  | 'SYSTEM_MESSAGE_TICKET_WIP_BY_AGENT' | 'SYSTEM_MESSAGE_TICKET_WIP_TO_UNASSIGNED_BY_SYSTEM'
  | 'SYSTEM_MESSAGE_TICKET_IDLE_TO_ACTIVE_BY_AGENT' | 'SYSTEM_MESSAGE_TICKET_IDLE_TO_ACTIVE_BY_CUSTOMER'
  | 'SYSTEM_MESSAGE_TICKET_IDLE_TO_ACTIVE_BY_SYSTEM' | 'SYSTEM_MESSAGE_TICKET_CLOSED_BY_AGENT'
  | 'SYSTEM_MESSAGE_TICKET_CLOSED_BY_CUSTOMER' | 'SYSTEM_MESSAGE_TICKET_CLOSED_BY_PLATFORM_API'
  | 'SYSTEM_MESSAGE_TICKET_CLOSED_BY_SYSTEM' | 'SYSTEM_MESSAGE_TICKET_REOPENED_BY_AGENT'
  | 'SYSTEM_MESSAGE_TICKET_REOPENED_BY_CUSTOMER' | 'SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_SYSTEM'
  | 'SYSTEM_MESSAGE_TICKET_ASSIGNED_BY_AGENT' | 'SYSTEM_MESSAGE_TICKET_GROUP_ASSIGNED_BY_AGENT'
  | 'SYSTEM_MESSAGE_TICKET_GROUP_UNASSIGNED_BY_AGENT' | 'SYSTEM_MESSAGE_TICKET_TRANSFERRED_BY_AGENT'
  | 'SYSTEM_MESSAGE_TICKET_GROUP_TRANSFERRED_BY_AGENT' | 'SYSTEM_MESSAGE_TICKET_GROUP_TRANSFERRED_BY_PLATFORM_API'
  | 'SYSTEM_MESSAGE_TICKET_PRIORITY_VALUE_UPDATED_BY_AGENT'
  | 'SYSTEM_MESSAGE_TICKET_PRIORITY_VALUE_UPDATED_BY_CUSTOMER'
  | 'SYSTEM_MESSAGE_TICKET_PRIORITY_VALUE_UPDATED_BY_PLATFORM_API'
>;

/** An agent as a system message names them. */
export interface Agent {
  id: number | null;
  displayName: string | null;
  photoThumbnailUrl: string | null;
  sendbirdId: string | null;
}

/** A ticket's assignment to an agent. */
export interface Assignment {
  agent: Agent | null;
  status: string | null;
  unreadCount: number | null;
}

/** The ticket a system message is about. */
export interface Ticket {
  id: number | null;
  channelName: string | null;
  channelUrl: string | null;
  status: string | null;
  status2: string | null;
  priority: string | null;
  group: number | null;
  recentAssignment: Assignment | null;
  customFields: { key: string; value: unknown }[];
  relatedChannels: { channelUrl: string; name: string | null }[];
  firstResponseTime: number | null;
  issuedAt: string | null;
}

/** A Desk system message: a change to the ticket, for agents only. */
export interface SystemMessageValue {
  type: SystemMessageType;
  /** Who made the change, from the type's `_BY_…` suffix. */
  actor: Open<'AGENT' | 'CUSTOMER' | 'SYSTEM' | 'PLATFORM_API'> | null;
  ticket: Ticket | null;
  transfer: { from: Assignment | null; to: Assignment | null } | null;
}

/** A Desk notification (welcome, away, closed…), shown to the customer. */
export interface NotificationValue {
  type: Open<
    | 'NOTIFICATION_WELCOME' | 'NOTIFICATION_AWAY_AGENT' | 'NOTIFICATION_ASSIGNMENT_DELAY'
    | 'NOTIFICATION_NOT_OPERATING_HOUR' | 'NOTIFICATION_MANUAL_CLOSED' | 'NOTIFICATION_AUTO_CLOSED'
    | 'NOTIFICATION_PROACTIVE_CHAT'
  > | null;
}

/** One answer of a bot's FAQ search. */
export interface BotAnswer {
  category: string | null;
  question: string | null;
  answer: string | null;
  keyword: string | null;
  url: string | null;
  imageUrl: string | null;
}

/** `SENDBIRD_DESK_BOT_MESSAGE_FAQ_ANSWERS`. */
export interface BotAnswersValue {
  faqFileId: number | null;
  results: BotAnswer[];
}

/** `data` of a type DeskKit does not know, kept as written. */
export interface UnknownValue {
  type: string | null;
  /** The payload's JSON, its members as the sender wrote them. */
  data: unknown;
}

/** `data` that could not be read; `error` says where it breaks. */
export interface MalformedValue {
  data: string;
}

/** Each kind of content with its typed value. */
export type DecodedContent =
  | { kind: 'url_preview'; value: URLPreviewValue }
  | { kind: 'closure_inquiry'; value: ClosureInquiryValue }
  | { kind: 'customer_satisfaction'; value: CustomerSatisfactionValue }
  | { kind: 'system_message'; value: SystemMessageValue }
  | { kind: 'notification'; value: NotificationValue }
  | { kind: 'bot_answers'; value: BotAnswersValue }
  | { kind: 'plain'; value: null }
  | { kind: 'unknown'; value: UnknownValue }
  | { kind: 'malformed'; value: MalformedValue };

/** The kinds of content. */
export type ContentKind = DecodedContent['kind'];

/** How `data` was written: `none`, `json`, `base64`, `text`, with details (`base64+urlsafe+unpadded`, `json+bom`). */
export type DataEncoding = Open<'none' | 'json' | 'base64' | 'text'>;

/**
 * A decoded message: one line of `deskkit decode --messages`, in camelCase. Narrow on `kind` to type `value`:
 * `if (m.kind === 'url_preview') m.value.title`.
 */
export type DecodedMessage = DecodedContent & {
  messageId: number | null;
  encoding: DataEncoding;
  visibleToCustomer: boolean;
  ticketClosed: boolean;
  /** The first problem, or null. */
  error: Problem | null;
};

/** What `deskkit decode DATA` prints, in camelCase; narrow on `kind` to type `value`. */
export type DecodedData = DecodedContent & {
  encoding: DataEncoding;
  problems: Problem[];
};

/**
 * A message as a `@sendbird/chat` object holds it (its members read as properties, so class instances with getters
 * do); `messageType` 'admin' is Desk's `ADMM`.
 */
export interface SDKMessage {
  messageId?: number;
  /** Sendbird's own link preview, which `renderPreview` draws when there is no Desk preview. */
  ogMetaData?: { url?: string; title?: string; description?: string;
    defaultImage?: { url?: string; secureUrl?: string; width?: number; height?: number } } | null;
  messageType?: Open<'user' | 'file' | 'admin'>;
  customType?: string | null;
  data?: string | null;
  message?: string | null;
  createdAt?: number;
}

/** A message as the Platform API and webhooks' `payload` write it. */
export interface PlatformMessage {
  message_id?: number | string;
  type?: Open<'MESG' | 'FILE' | 'ADMM'>;
  custom_type?: string | null;
  data?: string | null;
  message?: string | null;
  created_at?: number;
  [member: string]: unknown;
}

/** A Sendbird webhook body of a message event: the message is its `payload`. */
export interface WebhookBody {
  category: string;
  type?: string;
  payload: PlatformMessage;
  [member: string]: unknown;
}

/** A message in any shape a widget holds, or its JSON text. */
export type Envelope = string | SDKMessage | PlatformMessage | WebhookBody;

/** The `SENDBIRD_DESK_URL_PREVIEW` payload as written in `data`. */
export interface URLPreviewPayload {
  type: 'SENDBIRD_DESK_URL_PREVIEW';
  body: { url: string; site_name?: string; title?: string; description?: string; image?: string;
    image_width?: number; image_height?: number; [member: string]: unknown };
}

/** How `renderText` and `renderPreview` render. */
export interface RenderOptions {
  /** The document nodes are made in; default `globalThis.document`. */
  document?: Document;
  /**
   * Rewrites a card's image URL (through an image proxy, say), or returns null to show no image. Its answer must be
   * a safe URL too (`safeURL`: absolute http(s)) or a `data:image/…;base64,` URL, else the card has no image (as
   * `CardHTML`'s): give a proxy's path as `new URL(path, location.href)`.
   */
  imageURL?: (url: string) => string | URL | null;
  /** `findLinks`' options for the links in text. */
  linkOptions?: LinkOptions;
  /** The longest title (and site name), in graphemes, an ellipsis included; default 150. */
  maxTitle?: number;
  /** The longest description, in graphemes, an ellipsis included; default 300. */
  maxDescription?: number;
  /** E-mail addresses as `mailto:` links when `safeMailto` admits them (as ConversationPage links them); default true. */
  emailLinks?: boolean;
  /** The `alt` of an image that stands alone with no site label (`LinkCardImage.alt` null); default 'image'. */
  imageLabel?: string;
  /** `renderMessage`: who reads — a customer (default) sees no system message, unknown or malformed data. */
  audience?: 'customer' | 'agent';
  /**
   * `renderMessage`: the interface's language, a BCP 47 tag matched to one of DeskKit's eight (en, zh-Hans, ru, ja,
   * ko, es, de, ar; `zh-CN` is zh-Hans), else English; the message's `lang` and `dir` (Arabic is right to left).
   */
  language?: string;
}

/** The customer's answer to a closure inquiry, for the Desk SDK's `confirmEndOfChat(message, answer)`. */
export interface ClosureAnswer {
  kind: 'closure_inquiry';
  messageId: number | null;
  ticketId: number | null;
  answer: 'yes' | 'no';
}

/** The customer's answer to a satisfaction survey, for the Desk SDK's `submitFeedback(message, score, comment)`. */
export interface SatisfactionAnswer {
  kind: 'customer_satisfaction';
  messageId: number | null;
  ticketId: number | null;
  answer: { score: 1 | 2 | 3 | 4 | 5; comment: string | null };
}

/** What a `deskkit-answer` event carries. */
export type DeskKitAnswer = ClosureAnswer | SatisfactionAnswer;

/** The name of the event a customer's answer dispatches from `renderMessage`'s element (it bubbles, composed). */
export const ANSWER_EVENT: 'deskkit-answer';

declare global {
  interface HTMLElementEventMap {
    'deskkit-answer': CustomEvent<DeskKitAnswer>;
  }
}

/** A text of a card: clipped, with the direction to lay it out in (`dir`). */
export interface LinkCardText {
  /** The text to show, ending in '…' when it was clipped. */
  text: string;
  /** Its first strong character's direction; 'auto' when it has none (digits, punctuation, emoji). */
  dir: 'ltr' | 'rtl' | 'auto';
  /** Whether it was clipped. */
  clipped: boolean;
}

/** A card's image: its safe URL, its probed size (both sides or neither), and its `alt`. */
export interface LinkCardImage {
  url: string;
  width: number | null;
  height: number | null;
  /** '' beside a title or description (decoration), the site label when alone, null: the interface's word. */
  alt: string | null;
}

/**
 * What a client shows of a URL preview, every decision made (DeskKit's `LinkCard`, the same in Swift): the link
 * (null: the card is no link), the link's host for a footer under a site name (null when the site label is the
 * host), the image, the site label (the site's name, or the link's host), the title and the description.
 */
export interface LinkCard {
  link: string | null;
  host: string | null;
  image: LinkCardImage | null;
  site: LinkCardText | null;
  title: LinkCardText | null;
  description: LinkCardText | null;
}

/** Thrown when a message itself cannot be read (it is no JSON object); `problems` says why and where. */
export class DeskKitError extends Error {
  problems: Problem[];
}

export interface DeskKit {
  /** The links in `text`. */
  findLinks(text: string, options?: LinkOptions): Link[];
  /**
   * The message decoded, in any shape a widget holds it. Throws a DeskKitError for what is no message (no JSON
   * object, or none of type, custom type, data, message id).
   */
  decodeMessage(message: Envelope): DecodedMessage;
  /** A message's `data` string (raw or base64 JSON), decoded. */
  decodeData(data: string): DecodedData;
  /** Whether the audience sees the message. Throws a DeskKitError for what is no message. */
  visibility(message: Envelope, audience?: 'customer' | 'agent'): { visible: boolean; reason: Open<'system_custom_type' | 'system_data_type'> | null };
  /**
   * Every problem strict validation finds; empty for a valid message. Takes a message, a payload or the JSON text
   * of a `data` string; throws a DeskKitError for what is no message.
   */
  validate(message: Envelope | URLPreviewPayload | Record<string, unknown>): Problem[];
  /**
   * `text` as text nodes, each link `findLinks` finds as `<a href rel="noopener noreferrer nofollow"
   * target="_blank">` when it is a safe http(s) URL or e-mail address; nothing is parsed as markup.
   */
  renderText(text: string, options?: RenderOptions): DocumentFragment;
  /**
   * The preview card of a message (any shape, or its decoded answer) or of a `SENDBIRD_DESK_URL_PREVIEW` payload —
   * or, for a message without one, of Sendbird's own (`ogMetaData`, `og_tag`); null when there is none or it has no
   * title, description and image. Every decision is `linkCard`'s; this builds the elements. Style it with
   * `deskkit/card.css`.
   */
  renderPreview(message: Envelope | URLPreviewPayload | DecodedMessage, options?: RenderOptions): HTMLElement | null;
  /**
   * The element a widget shows for `message` (any shape), or null for what `options.audience` does not see: a
   * `<div class="deskkit-message" data-kind lang dir>` holding the text with its links, and by kind the closure
   * inquiry's two buttons (waiting) or its answer, the satisfaction survey's rating (five radio buttons), comment
   * and submit (waiting) or its stars and comment, the FAQ answers, a system message's facts (agents), a
   * notification, a note on unknown or malformed data (agents), and the preview card. A customer's answer
   * dispatches a `deskkit-answer` event (`DeskKitAnswer`) and disables the controls; re-render the updated message
   * to show it answered. Style it with `deskkit/card.css`.
   */
  renderMessage(message: Envelope, options?: RenderOptions): HTMLElement | null;
  /**
   * `href` when it is a `mailto:` link a client may open (one address, no query, a domain the URL rule calls
   * safe), else null: how `renderText` links e-mail addresses.
   */
  safeMailto(href: unknown): string | null;
  /**
   * `text` when a client may open or load it — DeskKit's one URL rule: an absolute http(s) URL whose host every
   * reader sees the same, without credentials or invisible characters — else null. Relative, scheme-relative and
   * backslash forms are null.
   */
  safeURL(text: unknown): string | null;
  /**
   * The card `renderPreview` draws, as decisions to lay out with elements of your own; null when there is no card.
   * Throws a DeskKitError for what is no message.
   */
  linkCard(message: Envelope | URLPreviewPayload | DecodedMessage, limits?: { maxTitle?: number; maxDescription?: number }): LinkCard | null;
  /** The module's memory in bytes. */
  readonly memoryBytes: number;
}

/**
 * Instantiates the module: from `deskkit.wasm` beside `index.mjs` (read from disk in Node, fetched in a
 * browser), or from `source` — its URL, its bytes, or a compiled module.
 */
export function load(source?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module): Promise<DeskKit>;
