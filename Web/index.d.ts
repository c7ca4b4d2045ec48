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

/** One line of `deskkit decode --messages`. */
export interface DecodedMessage {
  message_id: number | null;
  kind: string;
  encoding: 'none' | 'json' | 'base64' | string;
  visible_to_customer: boolean;
  ticket_closed: boolean;
  /** The payload, typed by `kind`; null for a plain message. */
  value: unknown;
  /** The first problem, or null. */
  error: Problem | null;
}

/** What `deskkit decode DATA` prints. */
export interface DecodedData {
  kind: string;
  encoding: string;
  value: unknown;
  problems: Problem[];
}

/** A Sendbird message object, or its JSON text. */
export type Envelope = string | Record<string, unknown>;

/** Thrown when a message itself cannot be read (it is no JSON object); `problems` says why and where. */
export class DeskKitError extends Error {
  problems: Problem[];
}

export interface DeskKit {
  /** The links in `text`. */
  findLinks(text: string, options?: LinkOptions): Link[];
  /** The message decoded as `deskkit decode --messages` prints it. Throws a DeskKitError for no JSON object. */
  decodeMessage(envelope: Envelope): DecodedMessage;
  /** A message's `data` string (raw or base64 JSON), decoded. */
  decodeData(data: string): DecodedData;
  /** Whether the audience sees the message. Throws a DeskKitError for no JSON object. */
  visibility(envelope: Envelope, audience?: 'customer' | 'agent'): { visible: boolean; reason: string | null };
  /** Every problem strict validation finds; empty for a valid message. */
  validate(envelope: Envelope): Problem[];
  /** The module's memory in bytes. */
  readonly memoryBytes: number;
}

/**
 * Instantiates the module: from `deskkit.wasm` beside `index.mjs` (read from disk in Node, fetched in a
 * browser), or from `source` — its URL, its bytes, or a compiled module.
 */
export function load(source?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module): Promise<DeskKit>;
