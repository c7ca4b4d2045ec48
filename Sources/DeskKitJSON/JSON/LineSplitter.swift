/// Cuts a stream of bytes, given in chunks of any size, into lines: each byte is examined once, whatever
/// the length of its line (a 50 MB line costs what 50,000 short ones do), and a line longer than
/// ``maxLineBytes`` is reported and skipped, so memory stays bounded by the limit.
package struct LineSplitter {
    /// What the splitter hands out.
    package enum Event {
        /// A line without its `\n`, and its 1-based number.
        case line(UnsafeBufferPointer<UInt8>, number: Int)
        /// Line `number` was longer than the limit: it was skipped.
        case tooLong(number: Int)
    }

    /// The default limit: 64 MiB.
    package static let defaultMaxLineBytes = 64 << 20

    package let maxLineBytes: Int
    /// Bytes looked at in the search for line ends, for tests that check the work is linear.
    package private(set) var bytesExamined = 0
    /// Bytes held for the line not yet ended: at most ``maxLineBytes`` plus one chunk.
    package var bufferedBytes: Int { buffer.count - start }

    private var buffer: [UInt8] = []
    /// Where the current line starts in `buffer`, and where the search for its end goes on.
    private var start = 0
    private var scanned = 0
    /// Inside a line that was too long: its bytes are dropped until its end.
    private var discarding = false
    private var lineNumber = 0

    package init(maxLineBytes: Int = defaultMaxLineBytes) {
        precondition(maxLineBytes > 0, "maxLineBytes must be positive")
        self.maxLineBytes = maxLineBytes
    }

    /// Takes the next bytes of the stream and hands out the lines they complete. An error `handle` throws
    /// stops the splitting and comes out here.
    ///
    /// These methods `throw` rather than `rethrow`: built with Swift 6.3, an error thrown by `handle` through
    /// `withUnsafeBufferPointer` inside the `rethrows` versions crashed the process (a bad jump), which the test
    /// `aThrowingHandlerStopsWithItsError` shows.
    package mutating func append(_ chunk: UnsafeBufferPointer<UInt8>, _ handle: (Event) throws -> Void) throws {
        var chunk = chunk[...]
        if discarding {
            let end = newline(in: chunk)
            guard let end else { return }
            discarding = false
            chunk = chunk[(end + 1)...]
        }
        if start > 0 {
            // Drop what was handed out: only the start of an unfinished line moves.
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        buffer.append(contentsOf: chunk)
        try handOutLines(handle)
        if buffer.count - start > maxLineBytes {
            lineNumber += 1
            try handle(.tooLong(number: lineNumber))
            buffer.removeAll(keepingCapacity: false)
            start = 0
            scanned = 0
            discarding = true
        }
    }

    /// Ends the stream: a last line without `\n` is handed out.
    package mutating func finish(_ handle: (Event) throws -> Void) throws {
        if discarding {
            discarding = false
            return
        }
        guard start < buffer.count else { return }
        lineNumber += 1
        let number = lineNumber
        try emit(start..<buffer.count, number: number, handle)
        buffer.removeAll()
        start = 0
        scanned = 0
    }

    private mutating func handOutLines(_ handle: (Event) throws -> Void) throws {
        while let end = newline(from: scanned) {
            lineNumber += 1
            try emit(start..<end, number: lineNumber, handle)
            start = end + 1
            scanned = start
        }
        scanned = buffer.count
    }

    private func emit(_ range: Range<Int>, number: Int, _ handle: (Event) throws -> Void) throws {
        if range.count > maxLineBytes { return try handle(.tooLong(number: number)) }
        try buffer.withUnsafeBufferPointer {
            try handle(.line(UnsafeBufferPointer(rebasing: $0[range]), number: number))
        }
    }

    /// The next `\n` in the buffer at or after `from`.
    private mutating func newline(from: Int) -> Int? {
        guard from < buffer.count else { return nil }
        let found = buffer.withUnsafeBufferPointer { Self.find(in: UnsafeBufferPointer(rebasing: $0[from...])) }
        bytesExamined += (found ?? (buffer.count - from - 1)) + 1
        return found.map { from + $0 }
    }

    /// The index of the next `\n` in `chunk` (in the chunk's base's indices).
    private mutating func newline(in chunk: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        let found = Self.find(in: UnsafeBufferPointer(rebasing: chunk))
        bytesExamined += (found ?? (chunk.count - 1)) + 1
        return found.map { chunk.startIndex + $0 }
    }

    /// The offset of the first `\n`: eight bytes at a time.
    private static func find(in b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = b.baseAddress.map(UnsafeRawPointer.init) else { return nil }
        var i = 0
        while i + 8 <= b.count {
            let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            // A zero byte in `word` is a `\n` in the input.
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        while i < b.count {
            if b[i] == 0x0A { return i }
            i += 1
        }
        return nil
    }
}
