import CLibXML2

/// One run of libxml2's HTML push parser over a page, in one encoding: all the state of that run, so that
/// starting again in another encoding is making a new one (the old one frees its libxml2 context).
///
/// The page's bytes go in by ``take(_:)`` in order; they reach libxml2 without the text of scripts and
/// styles, decoded to UTF-8 when the encoding is a legacy one, in slices placed by their position in the
/// page (``sliceSize(at:)``). The run stops itself — ``stop()``, the one place that stops libxml2 — when
/// the collector has what it needs or the body limit is reached.
final class PushParse {
    /// The encoding this run reads the page in.
    let charset: CharsetDecision
    /// What the SAX callbacks gathered.
    let collector: Collector
    private let limits: ExtractionLimits
    /// Decodes a legacy encoding to UTF-8 on its way to libxml2, as browsers do (nil for UTF-8 and UTF-16,
    /// which libxml2 reads itself).
    private let decoder: LegacyDecoder?

    // The state below is this run's alone, and libxml2 calls back on the thread that feeds it: the
    // run-time exclusivity checks of class properties (a few percent of extraction) are left out.
    @exclusivity(unchecked) private var context: htmlParserCtxtPtr?
    /// The page so far while its encoding is a guess and its head goes on: decoded again if a `<meta>` of
    /// the head declares another encoding (nil otherwise).
    @exclusivity(unchecked) var replay: [UInt8]?
    /// Drops script and style text on its way to libxml2 (nil when the encoding is not ASCII-compatible).
    @exclusivity(unchecked) private var skipper: RawTextSkipper?
    /// The UTF-8 of the last slice, when a decoder makes it.
    @exclusivity(unchecked) private var decoded: [UInt8] = []
    /// What libxml2 reads next, until it makes a whole slice.
    @exclusivity(unchecked) private var staging: [UInt8] = []
    /// Page bytes taken in, and bytes given to libxml2 (skipped text makes them differ).
    @exclusivity(unchecked) private var taken = 0
    @exclusivity(unchecked) private var fed = 0
    /// Where in the page libxml2 has read to.
    @exclusivity(unchecked) private(set) var bytesParsed = 0
    @exclusivity(unchecked) private var headEndedAt: Int?
    /// Where in the page the slice ends in which the head declared its encoding: the bytes before it are
    /// the ones judged, however the page arrived.
    @exclusivity(unchecked) private(set) var declarationSeenAt: Int?
    /// Whether libxml2 reads no more of the page: stopped, or the page ended.
    @exclusivity(unchecked) private(set) var stopped = false

    /// A run in the encoding `charset`; `replaying`: keep the page to decode it again (a guessed encoding).
    init(charset: CharsetDecision, limits: ExtractionLimits, replaying: Bool) {
        self.charset = charset
        self.limits = limits
        collector = Collector(limits: limits)
        decoder = LegacyDecoder.handles(charset.name) ? LegacyDecoder(name: charset.name) : nil
        skipper = charset.isASCIICompatible ? RawTextSkipper() : nil
        replay = replaying && charset.isASCIICompatible ? [] : nil
        var sax = Self.callbacks()
        // The run holds the collector and outlives the context: the callbacks borrow it without retaining.
        context = htmlCreatePushParserCtxt(
            &sax, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil, XML_CHAR_ENCODING_NONE)
        guard let context else {
            stopped = true
            return
        }
        let options =
            HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
            | HTML_PARSE_NODEFDTD.rawValue
        htmlCtxtUseOptions(context, Int32(options))
        let libxml2Reads = decoder == nil ? charset.name : "UTF-8"
        if let handler = xmlFindCharEncodingHandler(libxml2Reads) ?? xmlFindCharEncodingHandler("WINDOWS-1252") {
            xmlSwitchToEncoding(context, handler)
        }
    }

    deinit {
        if let context { htmlFreeParserCtxt(context) }
    }

    /// The SAX events the collector takes; each start and end tag may finish it, and the run stops at that
    /// very event, however the page was cut into chunks.
    private static func callbacks() -> htmlSAXHandler {
        var sax = htmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElement = { ctx, name, attributes in
            guard let ctx, let name else { return }
            Unmanaged<PushParse>.fromOpaque(ctx)._withUnsafeGuaranteedRef { run in
                let collector = run.collector
                collector.start(
                    Collector.Tag(name), StartTagAttributes(list: attributes, limit: collector.limits.maxValueBytes))
                if collector.done { run.stop() }
            }
        }
        sax.endElement = { ctx, name in
            guard let ctx, let name else { return }
            Unmanaged<PushParse>.fromOpaque(ctx)._withUnsafeGuaranteedRef { run in
                run.collector.end(Collector.Tag(name))
                if run.collector.done { run.stop() }
            }
        }
        sax.characters = { ctx, chars, length in
            guard let ctx, let chars, length > 0 else { return }
            Unmanaged<PushParse>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.collector.characters(UnsafeBufferPointer(start: chars, count: Int(length)))
            }
        }
        sax.cdataBlock = { ctx, chars, length in
            guard let ctx, let chars, length > 0 else { return }
            Unmanaged<PushParse>.fromOpaque(ctx)._withUnsafeGuaranteedRef {
                $0.collector.rawText(UnsafeBufferPointer(start: chars, count: Int(length)))
            }
        }
        sax.serror = { _, _ in }
        return sax
    }

    /// Takes the next bytes of the page.
    func take(_ input: UnsafeBufferPointer<UInt8>) {
        guard !stopped else { return }
        replay?.append(contentsOf: input)
        pass(input)
    }

    /// Ends the page: libxml2 reads what is staged and closes its open elements.
    func end() {
        guard !stopped else { return }
        let rest = staging
        staging = []
        rest.withUnsafeBufferPointer { push($0, terminate: true, pageEnd: taken) }
    }

    /// Stops libxml2 where it is: the only place it is stopped.
    func stop() {
        guard !stopped else { return }
        if let context { xmlStopParser(context) }
        stopped = true
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

    /// How far past the end of the head the parser reads at most. The collector stops itself sooner
    /// (``ExtractionLimits/maxBodyBytes`` of text and tags); this also bounds a body of text without any.
    private var maxBodyRead: Int { limits.maxBodyBytes + 64 * 1024 }

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
            skipper.scan(piece) { kept, end, skipFollows in
                stage(kept, pageEnd: base + end, flush: skipFollows)
            } script: { text, starts, end in
                // As far as libxml2 reads, and never past where the body limit may stop the run: the same
                // text however the page was cut into chunks (a script's start tag ends a slice).
                if !stopped, base + end <= limits.maxBodyBytes { collector.scriptText(text, starts: starts) }
            }
            // Skipped text reaches libxml2 as nothing: it counts against the body limit here.
            if let headEndedAt, taken - headEndedAt > maxBodyRead {
                bytesParsed = taken
                stop()
            }
        }
        self.skipper = skipper
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

    /// Pushes one slice; stops the run when the collector is done or the body limit is hit.
    /// `pageEnd`: where the slice ends in the page (skipped text makes it differ from a count).
    private func push(_ slice: UnsafeBufferPointer<UInt8>, terminate: Bool, pageEnd: Int) {
        guard let context else { return }
        LibXML2.silenceErrors()
        LibXML2.restartLookAhead(context)
        if let decoder {
            decoded.removeAll(keepingCapacity: true)
            decoder.decode(slice, final: terminate, into: &decoded)
            decoded.withUnsafeBufferPointer { LibXML2.parseChunk(context, $0, terminate: terminate) }
        } else {
            LibXML2.parseChunk(context, slice, terminate: terminate)
        }
        fed += slice.count
        bytesParsed = pageEnd
        if declarationSeenAt == nil, collector.declaredEncoding != nil { declarationSeenAt = pageEnd }
        if collector.headDone, headEndedAt == nil { headEndedAt = bytesParsed }
        if collector.done || (headEndedAt.map { bytesParsed - $0 > maxBodyRead } ?? false) { stop() }
        if terminate { stopped = true }
    }
}
