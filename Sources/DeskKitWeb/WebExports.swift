import DeskKitJSON
import DeskKitLinks
import DeskKitModel

// The web module's functions, as C symbols: `Scripts/build-wasm.sh` exports them from `deskkit.wasm`, and
// `Web/index.mjs` calls them. Text comes in as UTF-8 the caller wrote into memory it took with `dk_alloc`;
// each answer is a block from ``WebAnswer`` that the caller frees with `dk_free`. Nothing here traps on bad
// input: what cannot be read is answered as the `deskkit` command answers it.

/// One decoder for every call: it keeps its working memory from one message to the next, as `deskkit decode
/// --messages` does for a run of lines (WebAssembly runs one call at a time).
nonisolated(unsafe) private var decoder = DeskMessageDecoder()

/// The envelope at `bytes` decoded: one copy of the decoder's code for every call that reads a message (Embedded
/// Swift would inline one into each).
@inline(never)
private func decodedMessage(_ bytes: UnsafeBufferPointer<UInt8>) -> DeskMessage { decoder.decode(bytes) }

/// The `data` string at `bytes` decoded, in one copy as ``decodedMessage(_:)``.
@inline(never)
private func decodedData(_ bytes: UnsafeBufferPointer<UInt8>) -> DeskPayload.Decoded {
    DeskPayload.decode(bytes: bytes)
}

/// `count` bytes of memory for the caller to write into (at least one), or nil when there is none left.
@_cdecl("dk_alloc")
public func dk_alloc(_ count: Int) -> UnsafeMutableRawPointer? {
    guard count >= 0 else { return nil }
    return UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 8)
}

/// Frees memory from `dk_alloc` or an answer block.
@_cdecl("dk_free")
public func dk_free(_ pointer: UnsafeMutableRawPointer?) {
    pointer?.deallocate()
}

/// The links of the UTF-8 text at `text`, found with the options `options` (``LinkAnswer/options(_:)``).
@_cdecl("dk_find_links")
public func dk_find_links(_ text: UnsafeRawPointer?, _ count: Int, _ options: UInt32) -> UnsafeMutableRawPointer {
    LinkAnswer.block(LinkDetector(options: LinkAnswer.options(options)), WebAnswer.bytes(text, count))
}

/// One line of `deskkit decode --messages` for the envelope's JSON at `envelope`; `{"error"}` alone, the problem
/// at `$`, for a JSON object that is no message (``NoMessage``).
@_cdecl("dk_decode_message")
public func dk_decode_message(_ envelope: UnsafeRawPointer?, _ count: Int) -> UnsafeMutableRawPointer {
    let message = decodedMessage(WebAnswer.bytes(envelope, count))
    if let problem = NoMessage.problem(of: message) {
        return WebAnswer.json { w in
            w.member("error", problem.jsonValue, first: true)
            w.raw("}")
        }
    }
    return WebAnswer.json { message.writeSummary(to: &$0) }
}

/// What `deskkit decode DATA` prints for the `data` string at `data`: `{"kind", "encoding", "value", "problems"}`.
@_cdecl("dk_decode_data")
public func dk_decode_data(_ data: UnsafeRawPointer?, _ count: Int) -> UnsafeMutableRawPointer {
    let decoded = decodedData(WebAnswer.bytes(data, count))
    return WebAnswer.json { decoded.writeSummary(to: &$0) }
}

/// Whether the envelope at `envelope` is shown to the customer (`audience` 0) or an agent (1):
/// `{"visible", "reason", "error"}`, `error` the envelope's own problem when it is no JSON object or no message
/// (``NoMessage``), else null.
@_cdecl("dk_visibility")
public func dk_visibility(_ envelope: UnsafeRawPointer?, _ count: Int, _ audience: Int32) -> UnsafeMutableRawPointer {
    let message = decodedMessage(WebAnswer.bytes(envelope, count))
    let visibility = message.visibility(for: audience == 0 ? .customer : .agent)
    return WebAnswer.json { w in
        w.member("visible", first: true)
        w.raw(visibility.isVisible ? "true" : "false")
        if case .hidden(let reason) = visibility {
            w.member("reason", reason.rawValue)
        } else {
            w.member("reason", nil as String?)
        }
        w.member("error")
        if case .malformed(let m) = message.content, m.reason.path == "$" {
            w.write(m.reason.jsonValue)
        } else if let problem = NoMessage.problem(of: message) {
            w.write(problem.jsonValue)
        } else {
            w.raw("null")
        }
        w.raw("}")
    }
}

/// Every problem strict validation finds in the line at `line` (an envelope, a payload or a `data` string),
/// as `deskkit validate --jsonl` lists them: `[{"code", "path", "message"}]`; for a JSON object that is no message,
/// ``NoMessage/problem`` alone.
@_cdecl("dk_validate")
public func dk_validate(_ line: UnsafeRawPointer?, _ count: Int) -> UnsafeMutableRawPointer {
    let bytes = WebAnswer.bytes(line, count)
    // A payload (`{"type", "body"}`) has a type, and a `data` string is no object: only no message is refused.
    let problems = NoMessage.problem(of: decodedMessage(bytes)).map { [$0] } ?? DeskValidation.problems(inLine: bytes)
    return WebAnswer.json { w in w.array(problems) { $0.write($1.jsonValue) } }
}

/// 1 when the UTF-8 text at `url` is a URL a client may open or load (``URLSafety``, the one rule), else 0;
/// with `mailto` 1, when it is a `mailto:` link a client may open (``URLSafety/isSafeMailto(_:)``).
@_cdecl("dk_safe_url")
public func dk_safe_url(_ url: UnsafeRawPointer?, _ count: Int, _ mailto: Int32) -> Int32 {
    let bytes = WebAnswer.bytes(url, count)
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    return (mailto == 1 ? URLSafety.isSafeMailto(text) : URLSafety.isSafe(text)) ? 1 : 0
}

/// The ``LinkCard`` of the JSON at `json`, its texts clipped to `maxTitle` and `maxDescription` graphemes, as
/// ``LinkCard/write(to:)`` writes it under `card` (null: no card). `form` 1: the JSON is a message envelope, decoded as `dk_decode_message` decodes it:
/// `{"kind", "card", "error"}`, `error` the problem at `$` of what is no message (``NoMessage``), else null.
/// `form` 2: the text is a message's `data` (raw or base64 JSON), decoded as `dk_decode_data` does: `{"kind", "card"}`.
@_cdecl("dk_link_card")
public func dk_link_card(
    _ json: UnsafeRawPointer?, _ count: Int, _ maxTitle: Int32, _ maxDescription: Int32, _ form: Int32
) -> UnsafeMutableRawPointer {
    let limits = LinkCard.Limits(title: Int(maxTitle), description: Int(maxDescription))
    let bytes = WebAnswer.bytes(json, count)
    let content: DeskContent
    var problem: PayloadProblem?
    var card: LinkCard?
    if form == 2 {
        content = decodedData(bytes).content
        if case .urlPreview(let preview) = content { card = LinkCard(preview, limits: limits) }
    } else {
        let message = decodedMessage(bytes)
        content = message.content
        card = LinkCard(message, limits: limits)  // Sendbird's own preview when there is no Desk one
        if case .malformed(let m) = content, m.reason.path == "$" {
            problem = m.reason
        } else {
            problem = NoMessage.problem(of: message)
        }
    }
    return WebAnswer.json { w in
        w.member("card", first: true)
        if let card { card.write(to: &w) } else { w.raw("null") }
        w.member("kind", content.kind.rawValue)
        if form != 2 {
            w.member("error")
            if let problem { w.write(problem.jsonValue) } else { w.raw("null") }
        }
        w.raw("}")
    }
}
