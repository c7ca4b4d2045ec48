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
/** The members DeskKit reads, in the Platform API's names and the SDK's. */
const PLATFORM_KEYS = ['type', 'message_id', 'message', 'custom_type', 'created_at', 'data'];
const SDK_KEYS = ['messageType', 'messageId', 'message', 'customType', 'createdAt', 'data'];
/** The members that make an object a message: one of them at least. */
const MESSAGE_KEYS = ['type', 'custom_type', 'data', 'message_id'];

/**
 * The JSON text the module reads for `message`: a `@sendbird/chat` message object (its members read as
 * properties, so getters work; `messageType` 'admin' is `ADMM`), a Platform API message or webhook body
 * (snake_case), or the JSON text of any of them. An object that is no message throws a DeskKitError; text that
 * is no JSON object is left for the module to answer, as the `deskkit` command answers it.
 */
export function envelopeText(message, call) {
  if (typeof message === 'string') {
    let parsed;
    try {
      parsed = JSON.parse(message);
    } catch {
      return message;  // the module says where the text breaks
    }
    // Not an object: the module says what it is, as the command does (a JSON string is a `data` string to validate).
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return message;
    const shaped = messageObject(parsed, call);
    return shaped === parsed ? message : JSON.stringify(shaped);
  }
  return JSON.stringify(messageObject(message, call));
}

/** `value` as a message object in the Platform API's shape (itself when it is one). */
function messageObject(value, call) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    throw new DeskKitError(`${call}: a message is an object or its JSON text, found ${found}`,
      [{ code: 'wrong_type', path: '$', message: `a message is a JSON object, found ${found}` }]);
  }
  let shaped = value;
  const payload = value.payload;
  if (typeof value.category === 'string' && payload !== null && typeof payload === 'object') {
    // A webhook body: the message is its payload, typed by the body's `type`.
    shaped = { ...payload };
    if (shaped.type === undefined && value.type !== undefined) shaped.type = value.type;
  } else if (!PLATFORM_KEYS.some((k) => k !== 'message' && k !== 'data' && value[k] !== undefined) &&
             SDK_KEYS.some((k) => k !== 'message' && k !== 'data' && value[k] !== undefined)) {
    // The SDK's object: read as properties (a class's getters included).
    shaped = {};
    SDK_KEYS.forEach((k, i) => {
      const v = value[k];
      if (v !== undefined) shaped[PLATFORM_KEYS[i]] = k === 'messageType' ? (SDK_TYPES.get(v) ?? v) : v;
    });
  } else if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    // An instance of a class: its members as properties, not its own fields alone (what JSON.stringify reads).
    shaped = {};
    for (const k of PLATFORM_KEYS) if (value[k] !== undefined) shaped[k] = value[k];
  }
  if (!MESSAGE_KEYS.some((k) => shaped[k] !== undefined)) {
    throw new DeskKitError(`${call}: no message: none of type, custom_type, data, message_id (messageType, ` +
      'customType, data, messageId in the SDK\'s objects)',
      [{ code: 'missing_field', path: '$', message: 'none of type, custom_type, data, message_id' }]);
  }
  return shaped;
}

export function problemError(call, problem) {
  return new DeskKitError(`${call}: ${problem.code} at ${problem.path}: ${problem.message}`, [problem]);
}
