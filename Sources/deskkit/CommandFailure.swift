/// An error that ends a command with one line on standard error, its own exit status and no usage text.
protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: ExitStatus { get }
}

/// A failure described by a sentence.
struct Failure: CommandFailure {
    var description: String
    var exitStatus: ExitStatus
}

/// Input that could not be read at all: ``ExitStatus/noInput`` or ``ExitStatus/ioError``.
enum InputError: CommandFailure {
    case cannotOpen(String, String)
    case readFailed(String)

    var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot read \(path): \(reason)"
        case .readFailed(let reason): "read failed: \(reason)"
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .cannotOpen: .noInput
        case .readFailed: .ioError
        }
    }
}
