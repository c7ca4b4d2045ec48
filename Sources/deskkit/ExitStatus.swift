import ArgumentParser

/// How a `deskkit` command ends, as its exit status: the BSD `sysexits.h` numbers that scripts test.
struct ExitStatus: RawRepresentable, Hashable, Sendable {
    var rawValue: Int32

    /// Every input was handled.
    static let success = ExitStatus(rawValue: 0)
    /// The command ran, and some inputs failed (a line that does not decode, a page without a preview…).
    static let someInputsFailed = ExitStatus(rawValue: 1)
    /// A bad flag, or a bad server configuration (`EX_USAGE`).
    static let usage = ExitStatus(rawValue: 64)
    /// Input that is not what it should be, where the command cannot go on (`EX_DATAERR`).
    static let dataError = ExitStatus(rawValue: 65)
    /// An input that cannot be opened (`EX_NOINPUT`).
    static let noInput = ExitStatus(rawValue: 66)
    /// An output that cannot be created (`EX_CANTCREAT`).
    static let cannotCreate = ExitStatus(rawValue: 73)
    /// An I/O error: a read that failed, a port in use, a store that cannot be opened (`EX_IOERR`).
    static let ioError = ExitStatus(rawValue: 74)

    /// The status as ArgumentParser's error, to throw from `run()`.
    var exitCode: ExitCode { ExitCode(rawValue) }
}
