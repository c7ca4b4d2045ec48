// One file for one grammar: RFC 8259 as a single validating pass over the bytes — values, strings with their
// escapes and UTF-8, numbers, nesting — writing one tape. Its parts share the builder's cursor and tape and are
// read together when the grammar changes; the memory they write into is `TapeStorage.swift`.

extension JSONTape {
    /// Parses a complete JSON text (RFC 8259) into a tape: white space around the value, nothing else.
    /// The tape's tokens and text live in `storage`: keep it alive (and do not parse into it again) while the tape
    /// is read.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, into storage: TapeStorage)
        -> Result<JSONTape, JSONSyntaxError>
    {
        guard UInt64(bytes.count) < UInt64(UInt32.max) else {  // not Int(UInt32.max): Int is 32 bits in WebAssembly
            return .failure(JSONSyntaxError(code: .unexpectedCharacter, offset: 0, message: "text larger than 4 GiB"))
        }
        var builder = TapeBuilder(bytes: bytes, maxDepth: limits.maxDepth, storage: storage)
        defer { builder.handBack(to: storage) }
        builder.skipWhitespace()
        if builder.index == bytes.count {
            return .failure(JSONSyntaxError(code: .empty, offset: 0, message: "no JSON value"))
        }
        do {
            try builder.value(depth: 0)
            builder.skipWhitespace()
            if builder.index != bytes.count {
                return .failure(
                    JSONSyntaxError(
                        code: .trailingGarbage, offset: builder.index, message: "unexpected data after the JSON value"))
            }
            return .success(
                JSONTape(bytes: bytes, tokens: UnsafePointer(builder.tokens), text: UnsafePointer(builder.text)))
        } catch {
            return .failure(error)
        }
    }

    /// Parses into a storage of its own and hands the outcome to `body`, the only place the tape may be read.
    package static func withParsed<R>(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: JSONLimits, _ body: (Result<JSONTape, JSONSyntaxError>) -> R
    ) -> R {
        let storage = TapeStorage(capacity: bytes.count / 8)
        return withExtendedLifetime(storage) { body(parse(bytes, limits: limits, into: storage)) }
    }
}

/// The validating parser that writes a tape.
private struct TapeBuilder {
    package let bytes: UnsafeBufferPointer<UInt8>
    package let maxDepth: Int
    package var index = 0
    /// The storage's memory, held here while parsing (and handed back, grown, at the end).
    package var tokens: UnsafeMutablePointer<JSONTape.Token>
    package var capacity: Int
    package var count = 0
    /// The text of strings with escapes, escapes resolved: never longer than the bytes they were read from.
    package var text: UnsafeMutablePointer<UInt8>
    package var textCapacity: Int
    package var textCount = 0

    package init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, storage: TapeStorage) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        tokens = storage.tokens
        capacity = storage.capacity
        text = storage.text
        textCapacity = storage.textCapacity
    }

    package func handBack(to storage: TapeStorage) {
        storage.tokens = tokens
        storage.capacity = capacity
        storage.text = text
        storage.textCapacity = textCapacity
    }

    package mutating func grow() {
        let bigger = UnsafeMutablePointer<JSONTape.Token>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: tokens, count: count)
        tokens.deallocate()
        tokens = bigger
        capacity *= 2
    }

    @inline(__always) mutating package func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    package func error(_ code: JSONSyntaxError.Code, _ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(code: code, offset: offset ?? index, message: message)
    }

    package func unexpected() -> JSONSyntaxError {
        if index >= bytes.count { return error(.unexpectedEnd, "the JSON text ends too early") }
        let b = bytes[index]
        let shown = b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        return error(.unexpectedCharacter, "unexpected \(shown)")
    }

    @inline(__always) mutating package func push(_ kind: JSONTape.Kind, _ flags: UInt8, _ start: Int, _ end: Int) {
        if count == capacity { grow() }
        let next = UInt32(truncatingIfNeeded: count + 1)
        (tokens + count).initialize(
            to: JSONTape.Token(
                kind: kind, flags: flags, start: UInt32(truncatingIfNeeded: start),
                end: UInt32(truncatingIfNeeded: end),
                next: next))
        count += 1
    }

    package mutating func value(depth: Int) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw unexpected() }
        switch bytes[index] {
        case UInt8(ascii: "{"): try container(object: true, depth: depth + 1)
        case UInt8(ascii: "["): try container(object: false, depth: depth + 1)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw unexpected()
        }
    }

    package mutating func literal(_ word: StaticString, _ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        let start = index
        for i in 0..<word.utf8CodeUnitCount {
            guard index < bytes.count, bytes[index] == word.utf8Start[i] else { throw unexpected() }
            index += 1
        }
        push(kind, 0, start, index)
    }

    package mutating func container(object: Bool, depth: Int) throws(JSONSyntaxError) {
        if depth > maxDepth { throw error(.tooDeep, "nested deeper than \(maxDepth) levels") }
        let me = count
        push(object ? .object : .array, 0, index, 0)
        index += 1
        let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var members: UInt32 = 0
        skipWhitespace()
        if index < bytes.count, bytes[index] == close {
            index += 1
            return
        }
        while true {
            if object {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw unexpected() }
                try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw unexpected() }
                index += 1
                skipWhitespace()
            }
            try value(depth: depth)
            members += 1
            skipWhitespace()
            guard index < bytes.count else { throw unexpected() }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                skipWhitespace()
            } else if bytes[index] == close {
                index += 1
                tokens[me].end = members
                tokens[me].next = UInt32(truncatingIfNeeded: self.count)
                return
            } else {
                throw unexpected()
            }
        }
    }

    package mutating func number() throws(JSONSyntaxError) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else {
            throw error(.invalidNumber, "a number needs digits", at: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error(.invalidNumber, "a number cannot start with 0", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        var flags: UInt8 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            flags = JSONTape.fractional
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "a fraction needs digits after '.'", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            flags = JSONTape.fractional
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error(.invalidNumber, "an exponent needs digits", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        push(.number, flags, start, index)
    }

    @inline(__always) package func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// A bit for each of the sixteen bytes of `v` that needs a look in a string: `"`, `\\`, below 0x20 or
    /// above 0x7F. Compiles to vector compares (SSE2, NEON) and a multiply per half to gather the bits.
    @inline(__always) static package func specials(_ v: SIMD16<UInt8>) -> UInt32 {
        let found =
            (v .== SIMD16<UInt8>(repeating: UInt8(ascii: "\"")))
            .| (v .== SIMD16<UInt8>(repeating: UInt8(ascii: "\\")))
            .| (SIMD16<Int8>(truncatingIfNeeded: v) .< SIMD16<Int8>(repeating: 0x20))  // also catches 0x80–0xFF
        // Each lane is 0x00 or 0xFF; the multiply moves the high bit of byte k to bit 56 + k.
        let halves = unsafeBitCast(found, to: SIMD2<UInt64>.self)
        let low = (((halves[0] & 0x8080_8080_8080_8080) &>> 7) &* 0x0102_0408_1020_4080) &>> 56
        let high = (((halves[1] & 0x8080_8080_8080_8080) &>> 7) &* 0x0102_0408_1020_4080) &>> 56
        return UInt32(truncatingIfNeeded: low | high &<< 8)
    }

    @inline(__always) static package func load16(_ p: UnsafePointer<UInt8>) -> SIMD16<UInt8> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
    }

    @inline(__always) static package func store16(_ v: SIMD16<UInt8>, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD16<UInt8>.self)
    }

    /// The index of the first byte from `i` on that needs a look in a string (see ``specials(_:)``), or
    /// `end`: sixteen bytes at a time, then eight, then one.
    @inline(__always) static package func plainRun(_ base: UnsafePointer<UInt8>, from i: Int, to end: Int) -> Int {
        var i = i
        while i &+ 16 <= end {
            let m = specials(load16(base + i))
            if m != 0 { return i &+ m.trailingZeroBitCount }
            i &+= 16
        }
        if i &+ 8 <= end {
            let mask = special(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
            if mask != 0 { return i &+ mask.trailingZeroBitCount &>> 3 }
            i &+= 8
        }
        while i < end {
            let b = base[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b > 0x7F { return i }
            i &+= 1
        }
        return i
    }

    /// High bit set in each byte of `word` that is `"`, `\\`, below 0x20 or above 0x7F (exact for the
    /// lowest such byte; bytes above it may be flagged falsely, which only costs a look).
    @inline(__always) static package func special(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let control = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | control | word) & high
    }

    /// Validates a string starting at its opening quote and records its content's bounds.
    package mutating func string() throws(JSONSyntaxError) {
        let quote = index
        let base = bytes.baseAddress!
        let end = bytes.count
        var i = quote &+ 1
        let start = i
        while true {
            // Skip to the first byte that needs a look: a quote, a backslash, a control or non-ASCII byte.
            i = Self.plainRun(base, from: i, to: end)
            guard i < end else { break }
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                push(.string, 0, start, i)
                index = i &+ 1
                return
            } else if b == UInt8(ascii: "\\") {
                try escapedString(quote: quote, start: start, at: i)
                return
            } else {
                // A control byte is an error here; a non-ASCII one starts a run. Text in other scripts comes in
                // runs (a word, a sentence): validate the run here rather than going back to the block scan
                // for every character.
                i &+= try sequenceLength(at: i)
                i = try nonASCIIRun(base, from: i, to: end)
            }
        }
        index = i
        throw error(.unexpectedEnd, "a string is not closed", at: quote)
    }

    /// The end of the run of non-ASCII characters at `i` (a byte below 0x80 or the end), each validated. The
    /// sequences of most scripts — two bytes led by C2…DF (Cyrillic, Greek, Arabic, Hebrew) and three led by
    /// E1…EC or EE…EF (CJK, kana, Hangul, Thai, Devanagari) — are checked here by their lead and continuation
    /// bits alone (Unicode Table 3-7 holds no other limit for them); the rest (E0, ED, four bytes, and whatever
    /// is ill-formed) goes to ``sequenceLength(at:)``, which names the problem.
    @inline(__always) mutating func nonASCIIRun(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int)
        throws(JSONSyntaxError) -> Int
    {
        var i = start
        while i < end {
            let b0 = base[i]
            if b0 < 0x80 { break }
            if b0 &- 0xE1 < 0x0C || b0 >= 0xEE && b0 <= 0xEF {
                if i &+ 2 < end, base[i &+ 1] & 0xC0 == 0x80, base[i &+ 2] & 0xC0 == 0x80 {
                    i &+= 3
                    continue
                }
            } else if b0 &- 0xC2 < 0x1E {
                if i &+ 1 < end, base[i &+ 1] & 0xC0 == 0x80 {
                    i &+= 2
                    continue
                }
            }
            i &+= try sequenceLength(at: i)
        }
        return i
    }

    /// The length of the character at `i` in a string, neither a quote nor a backslash: 1 for ASCII, the
    /// UTF-8 sequence's length otherwise; a control byte or invalid UTF-8 is an error there.
    @inline(__always) mutating package func sequenceLength(at i: Int) throws(JSONSyntaxError) -> Int {
        let b = bytes[i]
        if b < 0x20 {
            index = i
            throw error(.controlCharacter, "unescaped control character in a string")
        }
        if b < 0x80 { return 1 }
        let n = UTF8Validation.sequenceLength(bytes, at: i)
        if n == 0 {
            index = i
            throw error(.invalidUTF8, "invalid UTF-8 in a string")
        }
        return n
    }

    /// The rest of a string whose first backslash is at `first`: validated as ``string()`` does, and written
    /// to the text with its escapes resolved, where its token points. One pass: the string is never unescaped
    /// again when it is read.
    package mutating func escapedString(quote: Int, start: Int, at first: Int) throws(JSONSyntaxError) {
        if textCapacity < bytes.count { growText() }
        let base = bytes.baseAddress!
        let end = bytes.count
        let out = text
        let outStart = textCount
        // Output never runs ahead of input (o <= i): every string's text is no longer than its bytes, and the
        // text of earlier strings fits before this one's start. So a whole word stored at `o` stays inside the
        // text's capacity (at least `bytes.count`) whenever a whole word can be loaded at `i`.
        var o = outStart &+ (first &- start)
        UnsafeMutableRawPointer(out + outStart).copyMemory(from: base + start, byteCount: first &- start)
        var i = first
        while true {
            // Sixteen bytes at a time, copied whole; then each one-character escape in them is resolved by
            // writing its character and copying the sixteen bytes after it one place further back, without
            // reading the input again to find the next escape. What is not such an escape (the closing quote,
            // `\u`, a non-ASCII byte, a backslash in the block's last byte) goes to the byte-wise part below.
            // Loads and stores stay below `i + 32` (and o <= i).
            block: while i &+ 32 <= end {
                let v = Self.load16(base + i)
                Self.store16(v, out + o)
                var m = Self.specials(v)
                var removed = 0  // bytes the escapes resolved so far took out of the block
                while m != 0 {
                    let p = m.trailingZeroBitCount
                    guard p < 15, base[i &+ p] == UInt8(ascii: "\\"), let c = Self.simpleEscape(base[i &+ p &+ 1])
                    else {
                        i &+= p
                        o &+= p &- removed
                        break block
                    }
                    out[o &+ p &- removed] = c
                    removed &+= 1
                    Self.store16(Self.load16(base + (i &+ p &+ 2)), out + (o &+ p &+ 2 &- removed))
                    m &= m &- 1
                    m &= ~(2 &<< p)  // the escaped character itself may be a quote or a backslash
                }
                i &+= 16
                o &+= 16 &- removed
            }
            while i &+ 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                UnsafeMutableRawPointer(out + o).storeBytes(of: word.littleEndian, as: UInt64.self)
                let mask = Self.special(word)
                if mask != 0 {
                    let k = mask.trailingZeroBitCount &>> 3
                    i &+= k
                    o &+= k
                    break
                }
                i &+= 8
                o &+= 8
            }
            guard i < end else { break }
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                push(.string, JSONTape.escaped, outStart, o)
                textCount = o
                index = i &+ 1
                return
            } else if b == UInt8(ascii: "\\") {
                if i &+ 1 < end, let c = Self.simpleEscape(base[i &+ 1]) {
                    out[o] = c
                    o &+= 1
                    i &+= 2
                } else {
                    index = i
                    UTF8.encode(try escape()) { byte in
                        out[o] = byte
                        o &+= 1
                    }
                    i = index
                }
            } else {
                let n = try sequenceLength(at: i)
                UnsafeMutableRawPointer(out + o).copyMemory(from: base + i, byteCount: n)
                i &+= n
                o &+= n
            }
        }
        index = i
        throw error(.unexpectedEnd, "a string is not closed", at: quote)
    }

    package mutating func growText() {
        textCapacity = max(bytes.count, textCapacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: textCapacity)
        UnsafeMutableRawPointer(bigger).copyMemory(from: text, byteCount: textCount)
        text.deallocate()
        text = bigger
    }

    /// The byte a one-character escape stands for: `\"` `\\` `/` `b` `f` `n` `r` `t`.
    @inline(__always) static package func simpleEscape(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return c
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    /// Validates the escape at `index` and moves past it; returns the character it stands for.
    package mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let at = index
        index += 1
        guard index < bytes.count else { throw error(.unexpectedEnd, "a string ends inside an escape") }
        let c = bytes[index]
        index += 1
        if let simple = Self.simpleEscape(c) { return Unicode.Scalar(simple) }
        guard c == UInt8(ascii: "u") else { throw error(.invalidEscape, "invalid escape in a string", at: at) }
        var v = try hex4(at)
        if v >= 0xD800, v < 0xDC00 {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error(.invalidEscape, "lone UTF-16 surrogate in \\u escape", at: at) }
            index += 2
            let low = try hex4(at)
            guard low >= 0xDC00, low < 0xE000 else {
                throw error(.invalidEscape, "lone UTF-16 surrogate in \\u escape", at: at)
            }
            v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
        }
        // What is left that is no character is a low surrogate on its own.
        guard let scalar = Unicode.Scalar(v) else {
            throw error(.invalidEscape, "lone UTF-16 surrogate in \\u escape", at: at)
        }
        return scalar
    }

    package mutating func hex4(_ at: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error(.unexpectedEnd, "a string ends inside a \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Hex.value(bytes[index]) else {
                throw error(.invalidEscape, "\\u needs four hex digits", at: at)
            }
            v = v << 4 | UInt32(d)
            index += 1
        }
        return v
    }
}
