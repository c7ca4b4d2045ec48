/// An error that ends a command with one line on standard error, its own exit status and no usage text.
protocol CommandFailure: Error, CustomStringConvertible {
    var exitStatus: Int32 { get }
}

/// A failure described by a sentence.
struct Failure: CommandFailure {
    var description: String
    var exitStatus: Int32
}

/// Input that could not be read at all: exit status 66 (cannot open) or 74 (an I/O error).
enum InputError: CommandFailure {
    case cannotOpen(String, String)
    case readFailed(String)

    var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot read \(path): \(reason)"
        case .readFailed(let reason): "read failed: \(reason)"
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .cannotOpen: 66
        case .readFailed: 74
        }
    }
}
