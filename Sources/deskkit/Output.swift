#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system's `write(2)`, by a name apart from `Output.write`'s (at file scope `write` is the C call).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(fd, bytes, count) }
import DeskKitModel

/// Buffered writing to standard output or standard error.
struct Output {
    private let fd: Int32
    /// What is buffered: JSON lines are written into it directly.
    private var writer = JSONWriter(capacity: 1 << 17)

    static func stdout() -> Output { Output(fd: 1) }
    static func stderr() -> Output { Output(fd: 2) }

    private init(fd: Int32) { self.fd = fd }

    mutating func write(_ bytes: some Sequence<UInt8>) {
        writer.append(contentsOf: bytes)
        if writer.count >= 1 << 16 { flush() }
    }

    /// Writes `bytes`; many of them go straight to the file, after what is buffered, without a copy.
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 1 << 16 else { return write(bytes[...]) }
        flush()
        writeAll(UnsafeRawBufferPointer(bytes))
    }

    mutating func line(_ s: String) {
        write(s.utf8)
        write(CollectionOfOne(0x0A))
    }

    /// Writes `value` as one line of compact JSON.
    mutating func line(_ value: JSONValue) {
        line { $0.write(value) }
    }

    /// Writes one line of JSON that `body` writes piece by piece, straight into the output buffer (no
    /// `JSONValue` tree and no copy in between).
    mutating func line(_ body: (inout JSONWriter) -> Void) {
        body(&writer)
        writer.append(0x0A)
        if writer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered. A reader that went away (`deskkit mutate | head -1`: EPIPE) ends the
    /// process quietly, as a closed pipe ends any Unix filter; another write error ends it with status 74.
    mutating func flush() {
        writer.withUnsafeBufferPointer { writeAll(UnsafeRawBufferPointer($0)) }
        writer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                let reason = String(cString: strerror(errno))
                _ = "deskkit: cannot write: \(reason)\n".withCString { systemWrite(2, $0, strlen($0)) }
                exit(74)
            }
            offset += n
        }
    }
}
