import ArgumentParser
import DeskKitModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@main
struct DeskKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deskkit",
        abstract: "Decode, check, filter and write the rich and admin messages of Sendbird Desk chats.",
        discussion: """
            Commands read and write JSON lines so that scripts and tests can drive them. Bad input never \
            stops a run: each bad line is answered or reported with what is wrong and where.

            Exit status: 0 all input good; 1 some input invalid (each bad line is reported); 64 usage \
            (a bad flag or value); 66 an input file cannot be opened; 74 an I/O error while reading or writing.
            """,
        version: DeskKitVersion.current,
        subcommands: [
            DecodeCommand.self, FilterCommand.self, ValidateCommand.self, EncodeCommand.self, DetectCommand.self,
            ExtractCommand.self, PreviewCommand.self, DemoCommand.self, MutateCommand.self, ServeCommand.self,
            JobsCommand.self, WebhookCommand.self,
        ]
    )

    /// ArgumentParser's main, except that a run-time failure (input that cannot be read, a port in use, a
    /// bad server configuration) is one line on standard error and its own exit status, without the usage
    /// text (errors in the flags keep theirs, status 64).
    static func main() async {
        do {
            var command = try parseAsRoot(lineCommand: parseLineCommand())
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as any CommandFailure {
            _ = "deskkit: \(error)\n".withCString { write(2, $0, strlen($0)) }
            exitProcess(error.exitStatus)
        } catch {
            exit(withError: error)
        }
    }
}

extension DeskKitCommand {
    /// The line commands, which scripts start once a file or a batch: parsed on their own.
    private static let lineCommands: [String: any ParsableCommand.Type] = [
        "decode": DecodeCommand.self, "filter": FilterCommand.self, "validate": ValidateCommand.self,
        "detect": DetectCommand.self, "extract": ExtractCommand.self,
    ]

    /// The line command the arguments name, parsed by itself, or nil: then ``parseAsRoot(_:)`` parses them.
    ///
    /// Parsing as the root builds ArgumentParser's tree of every command, and its run-time type lookups
    /// (a scan of every protocol conformance in the binary for each new type) cost more time than a whole
    /// run on a small file. A line command's own parse gives the same command for the same arguments; when
    /// it fails, or help, the version or completions are asked for, nil hands them to the root, which
    /// answers as it always did (usage and messages name `deskkit <command>`).
    /// `command`, or the root's parse of the arguments.
    private static func parseAsRoot(lineCommand command: (any ParsableCommand)?) throws -> any ParsableCommand {
        if let command { return command }
        return try parseAsRoot()
    }

    static func parseLineCommand(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> (any ParsableCommand)? {
        guard let name = arguments.first, let type = lineCommands[name],
            !arguments.contains(where: { $0.hasPrefix("-h") || $0 == "--help" || $0.hasPrefix("--version")
                || $0.hasPrefix("--generate-completion") || $0.hasPrefix("--experimental") })
        else { return nil }
        return try? type.parse(Array(arguments.dropFirst()))
    }
}

/// The C library's `exit`, which the commands' own static `exit(withError:)` hides inside them.
private func exitProcess(_ status: Int32) -> Never { exit(status) }
