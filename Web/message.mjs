// Messages in every shape a web widget holds, as the JSON text the module reads; the error DeskKit throws.

/** An error DeskKit reports about its input: `problems` lists what is wrong, each with its JSON path. */
export class DeskKitError extends Error {
  constructor(message, problems = []) {
    super(message);
    this.name = 'DeskKitError';
    this.problems = problems;
  }
}

/** `messageType` of `@sendbird/chat` messages, as Desk's `type`. */
const SDK_TYPES = new Map([['user', 'MESG'], ['file', 'FILE'], ['admin', 'ADMM']]);
/** The members DeskKit reads, in the Platform API's names and the SDK's (Sendbird's own preview among them). */
const PLATFORM_KEYS = ['type', 'message_id', 'message', 'custom_type', 'created_at', 'data', 'og_tag'];
const SDK_KEYS = ['messageType', 'messageId', 'message', 'customType', 'createdAt', 'data', 'ogMetaData'];
/** Members only the SDK's objects have (a FileMessage's `type` is its file's media type, not Desk's). */
const SDK_ONLY = ['messageType', 'messageId', 'customType', 'createdAt'];
/**
 * Text that may hold an SDK object or a webhook body: only such text is parsed here; the rest (the Platform API's
 * messages) goes to the module as it is. A key inside a string is escaped there (`\"messageId\"`) and never matches.
 */
const SHAPED_TEXT = /"(?:messageType|messageId|customType|createdAt|category)"\s*:/;

/**
 * The JSON text the module reads for `message`: a `@sendbird/chat` object (read as properties, so getters work), a
 * Platform API message or webhook body, or the JSON text of any. A value that is no object throws a DeskKitError.
 */
export function envelopeText(message, call) {
  if (typeof message === 'string') {
    if (!SHAPED_TEXT.test(message)) return message;
    let parsed;
    try {
      parsed = JSON.parse(message);
    } catch {
      return message;  // the module says where the text breaks
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return message;
    const shaped = messageObject(parsed);
    return shaped === parsed ? message : JSON.stringify(shaped);
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    const found = message === null ? 'null' : Array.isArray(message) ? 'an array' : typeof message;
    throw new DeskKitError(`${call}: a message is an object or its JSON text, found ${found}`,
      [{ code: 'wrong_type', path: '$', message: `a message is a JSON object, found ${found}` }]);
  }
  return JSON.stringify(messageObject(message));
}

/** `value` as a message object in the Platform API's shape (itself when it is one). */
function messageObject(value) {
  const payload = value.payload;
  if (typeof value.category === 'string' && payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
    // A webhook body: the message is its payload, typed by the body's `type`.
    const shaped = messageObject(payload);
    return shaped.type === undefined && value.type !== undefined ? { ...shaped, type: value.type } : shaped;
  }
  if (SDK_ONLY.some((k) => value[k] !== undefined)) {
    // The SDK's object: read as properties (a class's getters included).
    const shaped = {};
    SDK_KEYS.forEach((k, i) => {
      const v = value[k];
      if (v !== undefined) shaped[PLATFORM_KEYS[i]] = k === 'messageType' ? (SDK_TYPES.get(v) ?? v) : v;
    });
    return shaped;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    // An instance of a class: its members as properties, not its own fields alone (what JSON.stringify reads).
    const shaped = {};
    for (const k of PLATFORM_KEYS) if (value[k] !== undefined) shaped[k] = value[k];
    return shaped;
  }
  return value;
}

/** `message`'s members in the Platform API's names (Sendbird's own preview as `og_tag`), or null for text that is no object. */
export function shapedMessage(message) {
  let value = message;
  if (typeof message === 'string') {
    try {
      value = JSON.parse(message);
    } catch {
      return null;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return messageObject(value);
}

export function problemError(call, problem) {
  return new DeskKitError(`${call}: ${problem.code} at ${problem.path}: ${problem.message}`, [problem]);
}

/**
 * A URL preview's fields as `decodeMessage` types them, as the `SENDBIRD_DESK_URL_PREVIEW` payload the module reads:
 * only strings are texts and URLs, only integers sizes (not an object whose `toString` says `javascript:`).
 */
export function previewPayload(value) {
  const text = (s) => (typeof s === 'string' ? s : undefined);
  const size = (n) => (Number.isInteger(n) ? n : undefined);
  return JSON.stringify({ type: 'SENDBIRD_DESK_URL_PREVIEW', body: {
    url: text(value.url) ?? '', site_name: text(value.siteName), title: text(value.title),
    description: text(value.description), image: text(value.image), image_width: size(value.imageWidth),
    image_height: size(value.imageHeight),
  } });
}
