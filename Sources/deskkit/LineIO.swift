#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import DeskKitModel

/// Reads a file or standard input line by line, in large chunks, without decoding text.
struct LineReader {
    private let fd: Int32
    private let ownsFD: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
    private var lineNumber = 0

    /// Opens `path`, or standard input for nil or "-".
    init(path: String?) throws {
        if let path, path != "-" {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else {
                throw ValidationError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw ValidationError("cannot read \(path): it is a directory")
            }
            self.fd = fd
            ownsFD = true
        } else {
            fd = 0
            ownsFD = false
        }
        buffer.reserveCapacity(1 << 16)
    }

    /// Like ``forEachLine(_:)``, skipping lines of nothing but white space (their numbers still count).
    mutating func forEachNonBlankLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        try forEachLine { line, number in
            if JSONLines.isBlank(line) { return }
            try body(line, number)
        }
    }

    /// Calls `body` with each line (without its `\n`) and its 1-based number until the input ends.
    mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        defer { if ownsFD { close(fd) } }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Hand out every complete line in the buffer.
            let found: Int? = buffer.withUnsafeBufferPointer { b in
                var i = start
                while i < b.count { if b[i] == 0x0A { return i }; i += 1 }
                return nil
            }
            if let newline = found {
                lineNumber += 1
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<newline]), lineNumber) }
                start = newline + 1
                continue
            }
            if eof {
                if start < buffer.count {
                    lineNumber += 1
                    try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start...]), lineNumber) }
                }
                return
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            eof = try !Self.readChunk(fd, into: &chunk, appendingTo: &buffer)
        }
    }

    /// Every byte of the input, unchanged (a page is not lines).
    mutating func readAll() throws -> [UInt8] {
        defer { if ownsFD { close(fd) } }
        var bytes = Array(buffer[start...])
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !eof { eof = try !Self.readChunk(fd, into: &chunk, appendingTo: &bytes) }
        return bytes
    }

    /// Reads from `fd` once into `chunk` and appends what came to `bytes`; false at the end of the input.
    private static func readChunk(_ fd: Int32, into chunk: inout [UInt8], appendingTo bytes: inout [UInt8]) throws -> Bool {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { return true }
            throw ValidationError("read failed: \(String(cString: strerror(errno)))")
        }
        bytes.append(contentsOf: chunk[0..<n])
        return n > 0
    }
}

/// Buffered writing to standard output or standard error.
struct Output {
    private let fd: Int32
    private var buffer: [UInt8] = []

    static func stdout() -> Output { Output(fd: 1) }
    static func stderr() -> Output { Output(fd: 2) }

    private init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ s: String) {
        write(s.utf8)
        write(CollectionOfOne(0x0A))
    }

    /// Writes `value` as one line of compact JSON.
    mutating func line(_ value: JSONValue) {
        json.bytes.removeAll(keepingCapacity: true)
        json.write(value)
        write(json.bytes)
        write(CollectionOfOne(0x0A))
    }

    private var json = JSONWriter()

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { if errno == EINTR { continue } else { break } }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
