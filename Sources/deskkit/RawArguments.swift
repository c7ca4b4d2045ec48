#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The command line's arguments as the bytes the shell passed, before Swift replaced invalid UTF-8 with
/// U+FFFD: a `data` argument must be judged on what was given, as the same bytes from a file are.
enum RawArguments {
    /// The bytes of the argument that `value` was decoded from (the first one that decodes to it), or
    /// `value`'s own bytes.
    static func bytes(of value: String) -> [UInt8] {
        for i in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[i] else { continue }
            let raw = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            let bytes = Array(raw.bindMemory(to: UInt8.self))
            if String(decoding: bytes, as: UTF8.self) == value { return bytes }
        }
        return Array(value.utf8)
    }
}
