import Foundation
import Testing

/// Runs the `deskkit` executable built next to the test bundle.
enum CLI {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var executable: URL {
        var dir = Bundle.main.bundleURL
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        let candidate = dir.appendingPathComponent("deskkit")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return repositoryRoot.appendingPathComponent(".build/debug/deskkit")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        }
    }

    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> Result {
        try run(arguments, bytes: stdin.map { Data($0.utf8) }, environment: environment, directory: directory)
    }

    /// Runs deskkit in `directory`, by default the repository's root.
    static func run(
        _ arguments: [String], bytes stdin: Data?, environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = directory ?? repositoryRoot
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        // Write standard input and read standard error on their own threads, so that no pipe fills up
        // while another is waited on.
        let writer = input.fileHandleForWriting
        let wrote = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if let stdin { writer.write(stdin) }
            try? writer.close()
            wrote.signal()
        }
        nonisolated(unsafe) var e = Data()
        let readErr = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            e = err.fileHandleForReading.readDataToEndOfFile()
            readErr.signal()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        wrote.wait()
        readErr.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }

    static func json(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}
