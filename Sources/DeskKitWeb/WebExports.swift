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
    let message = decoder.decode(WebAnswer.bytes(envelope, count))
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
    let decoded = DeskPayload.decode(bytes: WebAnswer.bytes(data, count))
    return WebAnswer.json { decoded.writeSummary(to: &$0) }
}

/// Whether the envelope at `envelope` is shown to the customer (`audience` 0) or an agent (1):
/// `{"visible", "reason", "error"}`, `error` the envelope's own problem when it is no JSON object or no message
/// (``NoMessage``), else null.
@_cdecl("dk_visibility")
public func dk_visibility(_ envelope: UnsafeRawPointer?, _ count: Int, _ audience: Int32) -> UnsafeMutableRawPointer {
    let message = decoder.decode(WebAnswer.bytes(envelope, count))
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
    let problems = NoMessage.problem(of: decoder.decode(bytes)).map { [$0] } ?? DeskValidation.problems(inLine: bytes)
    return WebAnswer.json { w in w.array(problems) { $0.write($1.jsonValue) } }
}
