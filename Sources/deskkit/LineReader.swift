#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
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
                let hint = "deskkit: reading standard input from the terminal; end with Ctrl-D, or give a FILE or a pipe\n"
                _ = hint.withCString { write(2, $0, strlen($0)) }
            }
        }
    }

    init(path: String?, options: LineOptions) throws { try self.init(path: path, maxLineBytes: options.maxLineBytes) }

    /// Like ``forEachLine(_:overlong:)``, skipping lines of nothing but white space (their numbers still count).
    mutating func forEachNonBlankLine(
        _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void, overlong: (LineError) throws -> Void
    ) throws {
        try forEachLine({ line, number in
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

    /// Every byte of the input, unchanged (a page is not lines): a file is read straight into one array
    /// of its size, without copies; a pipe in chunks.
    mutating func readAll() throws -> [UInt8] {
        defer { if ownsFD { close(fd) } }
        var info = stat()
        let expected = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        let fd = self.fd
        var bytes = try [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            while count < buffer.count {
                let n = try Self.read(fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
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
            if try body(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) { return }
        }
    }

    /// Reads once from `fd` into `buffer` (again after EINTR); 0 at the end of the input.
    private static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw InputError.readFailed(String(cString: strerror(errno))) }
        }
    }
}
