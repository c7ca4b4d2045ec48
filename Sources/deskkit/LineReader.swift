#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's `read(2)`, by a name apart from the readers' own (at file scope `read` is the C call).
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
import ArgumentParser
import DeskKitModel

/// The options every command that reads lines takes.
struct LineOptions: ParsableArguments {
    @Option(name: .long, help: "The longest input line read, in bytes (64 MiB); a longer one is reported and skipped.")
    var maxLineBytes: Int = LineSplitter.defaultMaxLineBytes

    func validate() throws {
        guard maxLineBytes > 0 else { throw ValidationError("--max-line-bytes must be positive") }
    }
}

/// Reads a file or standard input line by line, in large chunks, without decoding text. Each byte is
/// examined once (``LineSplitter``), and a line longer than `maxLineBytes` is handed to `overlong`
/// instead of the body.
struct LineReader {
    private let fd: Int32
    private let ownsFD: Bool
    private var splitter: LineSplitter

    /// How much is read at a time.
    static let chunkSize = 1 << 20

    /// Opens `path`, or standard input for nil or "-".
    init(path: String?, maxLineBytes: Int = LineSplitter.defaultMaxLineBytes) throws {
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        if let path, path != "-" {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw InputError.cannotOpen(path, String(cString: strerror(errno)))
            }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw InputError.cannotOpen(path, "it is a directory")
            }
            self.fd = fd
            ownsFD = true
        } else {
            fd = 0
            ownsFD = false
            if isatty(0) != 0 {
                let hint =
                    "deskkit: reading standard input from the terminal; end with Ctrl-D, or give a FILE or a pipe\n"
                _ = hint.withCString { write(2, $0, strlen($0)) }
            }
        }
    }

    init(path: String?, options: LineOptions) throws { try self.init(path: path, maxLineBytes: options.maxLineBytes) }

    /// The longest line read, in bytes.
    var maxLineBytes: Int { splitter.maxLineBytes }

    /// Like ``forEachLine(_:overlong:)``, skipping lines of nothing but white space (their numbers still count).
    mutating func forEachNonBlankLine(
        _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void, overlong: (LineError) throws -> Void
    ) throws {
        try forEachLine(
            { line, number in
                if JSONLines.isBlank(line) { return }
                try body(line, number)
            }, overlong: overlong)
    }

    /// Calls `body` with each line (without its `\n`) and its 1-based number until the input ends, and
    /// `overlong` for each line over the limit.
    mutating func forEachLine(
        _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void, overlong: (LineError) throws -> Void
    ) throws {
        defer { if ownsFD { close(fd) } }
        let limit = splitter.maxLineBytes
        func handle(_ event: LineSplitter.Event) throws {
            switch event {
            case .line(let line, let number): try body(line, number)
            case .tooLong(let number): try overlong(.tooLong(line: number, limit: limit))
            }
        }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try Self.read(fd, into: $0) }
            if n == 0 { break }
            try chunk.withUnsafeBufferPointer { try splitter.append(UnsafeBufferPointer(rebasing: $0[..<n]), handle) }
        }
        try splitter.finish(handle)
    }

    /// One line of a batch (``forEachBatch(maxLines:maxBytes:_:)``): where its bytes are in the batch's
    /// buffer and its 1-based number; a line over the limit has no bytes and `tooLong` set.
    struct LineSpan {
        var start: Int
        var count: Int
        var number: Int
        var tooLong: Bool
    }

    /// Hands the input's non-blank lines to `body` in batches of at most `maxLines` lines, read in blocks of
    /// about `maxBytes`: the lines stay where `read` put them (no copy but the unfinished line carried to the
    /// next block), and the buffer is valid during the call. Lines over the limit come as `tooLong` spans
    /// in their place; the buffer holds at most twice the limit and a block.
    mutating func forEachBatch(
        maxLines: Int, maxBytes: Int, _ body: (UnsafeBufferPointer<UInt8>, [LineSpan]) throws -> Void
    ) throws {
        defer { if ownsFD { close(fd) } }
        let limit = maxLineBytes
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 2 * maxBytes)
        defer { buffer.deallocate() }
        var filled = 0
        var number = 0
        var discarding = false  // inside a line over the limit: its bytes are dropped up to its end
        var spans: [LineSpan] = []
        spans.reserveCapacity(maxLines)
        var atEnd = false
        while !atEnd {
            // Read at least `maxBytes` more (a pipe gives 64 KiB a read), or to the end of the input.
            let target = filled + maxBytes
            if target > buffer.count {
                let bigger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(target, 2 * buffer.count))
                _ = bigger.initialize(fromContentsOf: buffer[..<filled])
                buffer.deallocate()
                buffer = bigger
            }
            while filled < target {
                let n = try Self.read(
                    fd,
                    into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled..<target])))
                if n == 0 {
                    atEnd = true
                    break
                }
                filled += n
            }
            let bytes = UnsafeBufferPointer(buffer)
            var start = 0
            if discarding {
                guard let end = Self.newline(in: bytes, from: 0, to: filled) else {
                    filled = 0
                    continue
                }
                discarding = false
                start = end + 1
            }
            func add(_ line: Range<Int>) throws {
                number += 1
                if line.count > limit {
                    spans.append(LineSpan(start: line.lowerBound, count: 0, number: number, tooLong: true))
                } else if !JSONLines.isBlank(UnsafeBufferPointer(rebasing: bytes[line])) {
                    spans.append(LineSpan(start: line.lowerBound, count: line.count, number: number, tooLong: false))
                }
                if spans.count >= maxLines {
                    try body(bytes, spans)
                    spans.removeAll(keepingCapacity: true)
                }
            }
            while let end = Self.newline(in: bytes, from: start, to: filled) {
                try add(start..<end)
                start = end + 1
            }
            if atEnd, start < filled {
                try add(start..<filled)  // the last line, without its \n
                start = filled
            }
            if !spans.isEmpty {
                try body(bytes, spans)
                spans.removeAll(keepingCapacity: true)
            }
            let rest = filled - start
            if rest > limit {
                // An unfinished line already over the limit: reported now, the rest of it dropped.
                number += 1
                try body(bytes, [LineSpan(start: 0, count: 0, number: number, tooLong: true)])
                discarding = true
                filled = 0
            } else {
                if rest > 0, start > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(
                        from: buffer.baseAddress! + start, byteCount: rest)
                }
                filled = rest
            }
        }
    }

    /// The first `\n` in `bytes[from..<to]`.
    private static func newline(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let found = memchr(bytes.baseAddress! + from, 0x0A, to - from) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!)
    }

    /// Every byte of the input, unchanged (a page is not lines): a file is read straight into one array
    /// of its size, without copies; a pipe in chunks.
    mutating func readAll() throws -> [UInt8] {
        defer { if ownsFD { close(fd) } }
        var info = stat()
        let expected = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        let fd = self.fd
        var bytes = try [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            while count < buffer.count {
                let n = try Self.read(
                    fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                if n == 0 { return }
                count += n
            }
        }
        guard bytes.count > expected else { return bytes }
        // A pipe, or a file longer than it said: the rest in chunks.
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try Self.read(fd, into: $0) }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Hands the input to `body` in chunks of up to `size` bytes, read into one buffer, until it ends or
    /// `body` answers `true` (it has what it needs: the rest is never read).
    mutating func forEachChunk(size: Int = 64 * 1024, _ body: (UnsafeBufferPointer<UInt8>) throws -> Bool) throws {
        defer { if ownsFD { close(fd) } }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try Self.read(fd, into: buffer)
            if n == 0 { return }
            if try body(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) {
                return
            }
        }
    }

    /// Reads once from `fd` into `buffer` (again after EINTR); 0 at the end of the input.
    private static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = systemRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw InputError.readFailed(String(cString: strerror(errno))) }
        }
    }
}
