import CLibXML2

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

    @exclusivity(unchecked) private var collector: Collector
    /// The page so far while its encoding is a guess and its head goes on: decoded again if a `<meta>` of
    /// the head declares another encoding (nil otherwise).
    @exclusivity(unchecked) private var replay: [UInt8]?
    // The state below is this parser's alone, and libxml2 calls back on the thread that feeds it: the
    // run-time exclusivity checks of class properties (a few percent of extraction) are left out.
    @exclusivity(unchecked) private var context: htmlParserCtxtPtr?
    /// The start of the page while the charset cannot be decided yet.
    @exclusivity(unchecked) private var pending: [UInt8] = []
    @exclusivity(unchecked) private var charset: CharsetDecision?
    /// Decodes a legacy encoding to UTF-8 on its way to libxml2, as browsers do (nil for UTF-8 and UTF-16,
    /// which libxml2 reads itself).
    @exclusivity(unchecked) private var decoder: LegacyDecoder?
    /// The UTF-8 of the last slice, when a decoder makes it.
    @exclusivity(unchecked) private var decoded: [UInt8] = []
    /// Drops script and style text on its way to libxml2 (nil when the encoding is not ASCII-compatible).
    @exclusivity(unchecked) private var skipper: RawTextSkipper?
    /// What libxml2 reads next, until it makes a whole slice.
    @exclusivity(unchecked) private var staging: [UInt8] = []
    /// Page bytes taken in since the parser started, and bytes given to libxml2.
    @exclusivity(unchecked) private var taken = 0
    @exclusivity(unchecked) private var fed = 0
    @exclusivity(unchecked) private var bytesParsed = 0
    @exclusivity(unchecked) private var headEndedAt: Int?
    /// Where in the page the slice ends in which the head declared its encoding: the bytes before it are
    /// the ones judged, however the page arrived.
    @exclusivity(unchecked) private var declarationSeenAt: Int?
    @exclusivity(unchecked) private var stopped = false

    /// A parser for one page; feed it the page's bytes in order, then call ``finish()``.
    public init(pageURL: String?, contentType: String? = nil, limits: ExtractionLimits = .default) {
        LibXML2.initialize()
        self.pageURL = pageURL
        self.contentType = contentType
        self.limits = limits
        collector = Collector(limits: limits)
    }

    deinit {
        if let context { htmlFreeParserCtxt(context) }
    }

    /// Feeds the next bytes of the page. Returns `true` when no more are needed.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !stopped else { return true }
        take(bytes.bindMemory(to: UInt8.self))
        changeEncodingIfDeclared()
        return stopped
    }

    private func take(_ input: UnsafeBufferPointer<UInt8>) {
        if context != nil {
            replay?.append(contentsOf: input)
            pass(input)
        } else if pending.isEmpty, Self.decidable(input, newFrom: 0) {
            start(deciding: input)
            replay?.append(contentsOf: input)
            pass(input)
        } else {
            // Keep the start of the page until the head is in (or 64 KiB): the charset is decided on it.
            pending.append(contentsOf: input)
            let head = pending
            guard head.withUnsafeBufferPointer({ Self.decidable($0, newFrom: $0.count - input.count) }) else {
                return
            }
            pending = []
            head.withUnsafeBufferPointer {
                self.start(deciding: $0)
                replay?.append(contentsOf: $0)
                pass($0)
            }
        }
    }

    /// Feeds bytes from any collection.
    @discardableResult
    public func feed(_ bytes: some Collection<UInt8>) -> Bool {
        if let done = bytes.withContiguousStorageIfAvailable({ feed(UnsafeRawBufferPointer($0)) }) { return done }
        return Array(bytes).withUnsafeBytes { feed($0) }
    }

    /// Ends the page and returns what was found.
    public func finish() -> PageMetadata {
        if context == nil {
            let head = pending
            pending = []
            head.withUnsafeBufferPointer {
                start(deciding: $0)
                replay?.append(contentsOf: $0)
                pass($0)
            }
        }
        changeEncodingIfDeclared()
        if !stopped {
            let rest = staging
            staging = []
            rest.withUnsafeBufferPointer { push($0, terminate: true, pageEnd: taken) }
            changeEncodingIfDeclared(finishing: true)
        }
        collector.finish()
        return MetadataResolution.resolve(
            collector, pageURL: pageURL, charset: charset!, bytesParsed: bytesParsed, stoppedEarly: collector.done)
    }

    // MARK: Driving libxml2

    /// The most of a page kept to decode it again: 4 MiB.
    static let maxReplayBytes = 4 << 20

    /// The HTML standard's "change the encoding": when the encoding was only a guess (no byte order mark,
    /// no HTTP charset, no `<meta>` in the window the decision looks at) and a `<meta>` later in the head
    /// declares another one, the page is parsed again from its start in that encoding — unless the bytes
    /// up to the declaration are UTF-8 with multi-byte characters (a declaration they contradict, as at the
    /// start), or invalid in the declared encoding. Once the head has ended, or past 4 MiB, the guess
    /// stands. Judged on the page up to the slice that declared, so a streamed page decides as the whole
    /// page does.
    private func changeEncodingIfDeclared(finishing: Bool = false) {
        guard let bytes = replay, let current = charset else { return }
        guard let label = collector.declaredCharset, let seenAt = declarationSeenAt else {
            if collector.headDone || bytes.count > Self.maxReplayBytes { replay = nil }
            return
        }
        replay = nil
        guard seenAt <= Self.maxReplayBytes else { return }
        // A declaration the decision already weighed and overruled (the bytes are another encoding) stays overruled.
        guard var name = CharsetSniffer.canonicalName(label), name != current.name, name != current.declared else {
            return
        }
        if name.hasPrefix("UTF-16") { name = "UTF-8" }  // a page read as ASCII cannot be UTF-16
        let accepted = bytes.withUnsafeBufferPointer { all -> Bool in
            let b = UnsafeBufferPointer(rebasing: all[0..<min(all.count, seenAt)])
            let utf8 = CharsetSniffer.UTF8Evidence(b)
            if name == "UTF-8" { return !utf8.contradictsUTF8 }
            return !(utf8.isUTF8 && utf8.multibyte > 0) && CharsetDetection.decodes(b, as: name)
        }
        guard accepted, name != current.name else { return }
        // Start again: a new parser and collector, the bytes so far, then what follows as it comes.
        if let context { htmlFreeParserCtxt(context) }
        context = nil
        collector = Collector(limits: limits)
        staging = []
        taken = 0
        fed = 0
        bytesParsed = 0
        headEndedAt = nil
        declarationSeenAt = nil
        stopped = false
        start(with: CharsetDecision(name: name, source: .meta, declared: current.name))
        bytes.withUnsafeBufferPointer { pass($0) }
        if finishing, !stopped {
            let rest = staging
            staging = []
            rest.withUnsafeBufferPointer { push($0, terminate: true, pageEnd: taken) }
        }
    }

    /// Decides the charset on the start of the page and sets up libxml2's push parser.
    private func start(deciding startOfPage: UnsafeBufferPointer<UInt8>) {
        let decision = CharsetSniffer.decide(startOfPage, contentType: contentType)
        switch decision.source {
        case .detectedUTF8, .detected, .fallback: replay = decision.isASCIICompatible ? [] : nil
        case .byteOrderMark, .httpHeader, .meta, .utf8OverDeclaration: replay = nil
        }
        start(with: decision)
    }

    /// Sets up libxml2's push parser for `decision`.
    private func start(with decision: CharsetDecision) {
        charset = decision
        skipper = decision.isASCIICompatible ? RawTextSkipper() : nil
        decoder = LegacyDecoder.handles(decision.name) ? LegacyDecoder(name: decision.name) : nil
        var sax = htmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElement = { ctx, name, attributes in
            guard let ctx, let name else { return }
            Unmanaged<Collector>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.start(Collector.Tag(name), StartTagAttributes(list: attributes, limit: $0.limits.maxValueBytes))
            }
        }
        sax.endElement = { ctx, name in
            guard let ctx, let name else { return }
            Unmanaged<Collector>.fromOpaque(ctx)._withUnsafeGuaranteedRef { $0.end(Collector.Tag(name)) }
        }
        sax.characters = { ctx, chars, length in
            guard let ctx, let chars, length > 0 else { return }
            Unmanaged<Collector>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.characters(UnsafeBufferPointer(start: chars, count: Int(length)))
            }
        }
        sax.cdataBlock = { ctx, chars, length in
            guard let ctx, let chars, length > 0 else { return }
            Unmanaged<Collector>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.rawText(UnsafeBufferPointer(start: chars, count: Int(length)))
            }
        }
        sax.serror = { _, _ in }
        // The parser holds the collector, so the callbacks borrow it without retaining it each time.
        let userData = Unmanaged.passUnretained(collector).toOpaque()
        context = htmlCreatePushParserCtxt(&sax, userData, nil, 0, nil, XML_CHAR_ENCODING_NONE)
        guard let context else {
            stopped = true
            return
        }
        collector.context = context
        let options =
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
            | HTML_PARSE_NODEFDTD.rawValue
        htmlCtxtUseOptions(context, Int32(options))
        let libxml2Reads = decoder == nil ? decision.name : "UTF-8"
        if let handler = xmlFindCharEncodingHandler(libxml2Reads) ?? xmlFindCharEncodingHandler("WINDOWS-1252") {
            xmlSwitchToEncoding(context, handler)
        }
    }

    /// libxml2 gets the page in slices whose places depend only on their position in what it reads, never
    /// on the chunks the network delivered: so a streamed page parses exactly as the whole page does
    /// (libxml2 2.9's push parser does not always resume the same way at every cut). Small at first, so
    /// little is read past the metadata; then growing (a quarter of the position, up to 256 KiB), because
    /// each slice makes libxml2 look again from the start of a token it has not finished (a 4 MB attribute
    /// would otherwise be looked through a thousand times).
    static func sliceSize(at position: Int) -> Int {
        min(256 * 1024, max(4 * 1024, position / 4 & ~4095))
    }

    /// Passes the next bytes of the page on to libxml2, without the text of scripts and styles; 4 KiB at a
    /// time, so little is scanned after libxml2 has what it needs.
    private func pass(_ input: UnsafeBufferPointer<UInt8>) {
        guard var skipper else {
            taken += input.count
            return stage(input, pageEnd: taken)
        }
        var from = 0
        while from < input.count, !stopped {
            let piece = UnsafeBufferPointer(rebasing: input[from..<min(input.count, from + 4096)])
            let base = taken
            taken += piece.count
            from += piece.count
            skipper.scan(piece) { kept, end, skipFollows in stage(kept, pageEnd: base + end, flush: skipFollows) }
            // Skipped text reaches libxml2 as nothing: it counts against the body limit here.
            if let headEndedAt, taken - headEndedAt > maxBodyRead {
                bytesParsed = taken
                stop()
            }
        }
        self.skipper = skipper
    }

    /// How far past the end of the head the parser reads at most. The collector stops itself sooner
    /// (``ExtractionLimits/maxBodyBytes`` of text and tags); this also bounds a body of text without any.
    private var maxBodyRead: Int { limits.maxBodyBytes + 64 * 1024 }

    private func stop() {
        if let context { xmlStopParser(context) }
        stopped = true
    }

    /// Gives libxml2 the slices that `kept` completes, straight from `kept` where it can (no copy); keeps
    /// the bytes of an incomplete slice for the next. `pageEnd`: where `kept` ends in the page. `flush`:
    /// text is skipped next, so libxml2 gets what is staged now, a shorter slice (where the page's bytes
    /// put it, as every slice), and knows it is in a script — in the body, under the body limit.
    private func stage(_ kept: UnsafeBufferPointer<UInt8>, pageEnd: Int, flush: Bool = false) {
        var rest = kept[...]
        defer {
            if flush, !stopped, !staging.isEmpty {
                staging.withUnsafeBufferPointer { push($0, terminate: false, pageEnd: pageEnd) }
                staging.removeAll(keepingCapacity: true)
            }
        }
        while !stopped {
            let size = Self.sliceSize(at: fed)
            if staging.isEmpty, rest.count >= size {
                push(
                    UnsafeBufferPointer(rebasing: rest.prefix(size)), terminate: false,
                    pageEnd: pageEnd - (rest.count - size))
                rest = rest.dropFirst(size)
                continue
            }
            let take = min(rest.count, size - staging.count)
            staging.append(contentsOf: rest.prefix(take))
            rest = rest.dropFirst(take)
            guard staging.count == size else { return }
            staging.withUnsafeBufferPointer { push($0, terminate: false, pageEnd: pageEnd - rest.count) }
            staging.removeAll(keepingCapacity: true)
        }
    }

    /// Pushes one slice; stops the parser when the collector is done or the body limit is hit.
    /// `pageEnd`: where the slice ends in the page (skipped text makes it differ from a count).
    private func push(_ slice: UnsafeBufferPointer<UInt8>, terminate: Bool, pageEnd: Int) {
        guard let context else { return }
        LibXML2.silenceErrors()
        // libxml2 2.9 resumes its look-ahead for `>` and `<` at `checkIndex`, and can resume in the wrong
        // quote state after its buffer moved: then it waits for the end of the page. Starting the
        // look-ahead afresh at each slice is always correct.
        context.pointee.checkIndex = 0
        context.pointee.hasPErefs = 0
        if let decoder {
            decoded.removeAll(keepingCapacity: true)
            decoder.decode(slice, final: terminate, into: &decoded)
            decoded.withUnsafeBufferPointer { utf8 in
                let bytes = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                htmlParseChunk(context, utf8.isEmpty ? nil : bytes, Int32(utf8.count), terminate ? 1 : 0)
            }
        } else {
            let bytes = slice.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            htmlParseChunk(context, slice.isEmpty ? nil : bytes, Int32(slice.count), terminate ? 1 : 0)
        }
        fed += slice.count
        bytesParsed = pageEnd
        if declarationSeenAt == nil, collector.declaredCharset != nil { declarationSeenAt = pageEnd }
        if collector.headDone, headEndedAt == nil { headEndedAt = bytesParsed }
        if collector.done || (headEndedAt.map { bytesParsed - $0 > maxBodyRead } ?? false) { stop() }
        if terminate { stopped = true }
    }

    /// Whether the charset can be decided on `bytes`, the start of the page: they hold the bytes the
    /// decision looks at, through the end of the head or 64 KiB. The end of the head is looked for in what
    /// arrived from `newFrom` on (a few bytes earlier: it may have been cut), so each byte is looked at once.
    private static func decidable(_ bytes: UnsafeBufferPointer<UInt8>, newFrom: Int) -> Bool {
        CharsetSniffer.holdsWindow(bytes, searchingFrom: max(0, newFrom - 5))
    }
}
