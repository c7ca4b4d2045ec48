/// Streams an HTML page through libxml2's HTML push parser and collects its preview metadata.
///
/// Feed the bytes as they arrive; `feed(_:)` answers `true` once the parser has what it needs (the end
/// of the head with every preview field found, or the body fallbacks too), and the rest of the page need
/// not be read. Then call ``finish()``.
///
/// ```swift
/// let parser = HTMLMetadataParser(pageURL: url, contentType: response.contentType)
/// for try await chunk in body { if parser.feed(chunk) { break } }
/// let metadata = parser.finish()
/// ```
///
/// One parser reads one page, on one task at a time (it is not `Sendable`). Many parsers may run at once.
public final class HTMLMetadataParser {
    /// The page's URL: relative URLs are resolved against it, and its host is the last site name.
    public let pageURL: String?
    /// The HTTP `Content-Type` the page came with; its charset comes before the page's own declarations.
    public let contentType: String?
    /// The limits extraction keeps to.
    public let limits: ExtractionLimits

    /// Where the parser is. Its two transitions — the charset decided, and the page started again in
    /// the encoding its head declares — are ``begin(_:)`` and ``changeEncodingIfDeclared(_:finishing:)``.
    @exclusivity(unchecked) private var state: State = .deciding(pending: [])

    private enum State {
        /// The start of the page, kept until the charset can be decided on it (the head, or 64 KiB).
        case deciding(pending: [UInt8])
        /// libxml2 reads the page in the encoding decided.
        case parsing(PushParse)
    }

    /// A parser for one page; feed it the page's bytes in order, then call ``finish()``.
    public init(pageURL: String?, contentType: String? = nil, limits: ExtractionLimits = .default) {
        LibXML2.initialize()
        self.pageURL = pageURL
        self.contentType = contentType
        self.limits = limits
    }

    /// Feeds the next bytes of the page. Returns `true` when no more are needed.
    @discardableResult
    public func feed(_ bytes: some Collection<UInt8>) -> Bool {
        if let done = bytes.withContiguousStorageIfAvailable({ feed(contiguous: $0) }) { return done }
        return Array(bytes).withUnsafeBufferPointer { feed(contiguous: $0) }
    }

    private func feed(contiguous input: UnsafeBufferPointer<UInt8>) -> Bool {
        let run: PushParse
        switch state {
        case .parsing(let running):
            guard !running.stopped else { return true }
            running.take(input)
            run = running
        case .deciding(var pending):
            if pending.isEmpty, Self.decidable(input, newFrom: 0) {
                run = begin(input)
            } else {
                state = .deciding(pending: [])  // the array is uniquely referenced while it grows
                pending.append(contentsOf: input)
                guard pending.withUnsafeBufferPointer({ Self.decidable($0, newFrom: $0.count - input.count) })
                else {
                    state = .deciding(pending: pending)
                    return false
                }
                run = pending.withUnsafeBufferPointer { begin($0) }
            }
        }
        return changeEncodingIfDeclared(run).stopped
    }

    /// Ends the page and returns what was found.
    public func finish() -> PageMetadata {
        var run =
            switch state {
            case .deciding(let pending): pending.withUnsafeBufferPointer { begin($0) }
            case .parsing(let running): running
            }
        run = changeEncodingIfDeclared(run)
        if !run.stopped {
            run.end()
            run = changeEncodingIfDeclared(run, finishing: true)
        }
        run.collector.finish()
        return MetadataResolution.resolve(
            run.collector, pageURL: pageURL, charset: run.charset, bytesParsed: run.bytesParsed,
            stoppedEarly: run.collector.done)
    }

    // MARK: Transitions

    /// Decides the charset on the start of the page, starts libxml2's push parser in it and gives it
    /// that start.
    private func begin(_ startOfPage: UnsafeBufferPointer<UInt8>) -> PushParse {
        let decision = CharsetSniffer.decide(startOfPage, contentType: contentType)
        let run = PushParse(charset: decision, limits: limits, replaying: decision.source.isGuess)
        state = .parsing(run)
        run.take(startOfPage)
        return run
    }

    /// The most of a page kept to decode it again: 4 MiB.
    static let maxReplayBytes = 4 << 20

    /// The HTML standard's "change the encoding": when the encoding was only a guess (no byte order mark,
    /// no HTTP charset, no `<meta>` in the window the decision looks at) and a `<meta>` later in the head
    /// declares another one, the page is parsed again from its start in that encoding — unless the bytes
    /// up to the declaration are UTF-8 with multi-byte characters (a declaration they contradict, as at the
    /// start), or invalid in the declared encoding. Once the head has ended, or past 4 MiB, the guess
    /// stands. Judged on the page up to the slice that declared, so a streamed page decides as the whole
    /// page does. Returns the run that goes on: `run`, or the new one.
    private func changeEncodingIfDeclared(_ run: PushParse, finishing: Bool = false) -> PushParse {
        guard let bytes = run.replay else { return run }
        guard let declared = run.collector.declaredEncoding, let seenAt = run.declarationSeenAt else {
            if run.collector.headDone || bytes.count > Self.maxReplayBytes { run.replay = nil }
            return run
        }
        run.replay = nil
        let current = run.charset
        guard seenAt <= Self.maxReplayBytes else { return run }
        // A declaration the decision already weighed and overruled (the bytes are another encoding) stays overruled.
        let name = declared.name
        guard name != current.name, name != current.declared else { return run }
        let accepted = bytes.withUnsafeBufferPointer { all -> Bool in
            let b = UnsafeBufferPointer(rebasing: all[0..<min(all.count, seenAt)])
            let utf8 = CharsetSniffer.UTF8Evidence(b)
            if name == "UTF-8" { return !utf8.contradictsUTF8 }
            return !(utf8.isUTF8 && utf8.multibyte > 0) && CharsetDetection.decodes(b, as: name)
        }
        guard accepted else { return run }
        // Start again: a new run, the bytes so far, then what follows as it comes.
        let again = PushParse(
            charset: CharsetDecision(name: name, source: .meta, declared: current.name), limits: limits,
            replaying: false)
        state = .parsing(again)
        bytes.withUnsafeBufferPointer { again.take($0) }
        if finishing { again.end() }
        return again
    }

    /// Whether the charset can be decided on `bytes`, the start of the page: they hold the bytes the
    /// decision looks at, through the end of the head or 64 KiB. The end of the head is looked for in what
    /// arrived from `newFrom` on (a few bytes earlier: it may have been cut), so each byte is looked at once.
    private static func decidable(_ bytes: UnsafeBufferPointer<UInt8>, newFrom: Int) -> Bool {
        CharsetSniffer.holdsWindow(bytes, searchingFrom: max(0, newFrom - 5))
    }
}
