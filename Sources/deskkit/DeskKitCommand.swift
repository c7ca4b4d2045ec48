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
            ExtractCommand.self, PreviewCommand.self, CardCommand.self, DemoCommand.self, MutateCommand.self,
            SchemaCommand.self,
            ServeCommand.self,
            JobsCommand.self, PreviewsCommand.self, SignImageCommand.self, WebhookCommand.self,
        ]
    )

    /// ArgumentParser's main, except that a run-time failure (input that cannot be read, a port in use, a
    /// bad server configuration) is one line on standard error and its own exit status, without the usage
    /// text (errors in the flags keep theirs, status 64).
    static func main() async {
        do {
            var command = try parseLineCommandOrRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as any CommandFailure {
            _ = "deskkit: \(error)\n".withCString { write(2, $0, strlen($0)) }
            exitProcess(error.exitStatus.rawValue)
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

    /// The line command the arguments name, parsed by itself; otherwise ``parseAsRoot(_:)``'s parse.
    ///
    /// Parsing as the root builds ArgumentParser's tree of every command, and its run-time type lookups
    /// (a scan of every protocol conformance in the binary for each new type) cost more time than a whole
    /// run on a small file. A line command's own parse gives the same command for the same arguments; when
    /// it fails, or help, the version or completions are asked for, the root parses the arguments and
    /// answers as it always did (usage and messages name `deskkit <command>`).
    static func parseLineCommandOrRoot() throws -> any ParsableCommand {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let asked = { (a: String) in
            a.hasPrefix("-h") || a == "--help" || a.hasPrefix("--version") || a.hasPrefix("--generate-completion")
                || a.hasPrefix("--experimental")
        }
        if let name = arguments.first, let type = lineCommands[name], !arguments.contains(where: asked),
            let command = try? type.parse(Array(arguments.dropFirst()))
        {
            return command
        }
        return try parseAsRoot()
    }
}

/// The C library's `exit`, which the commands' own static `exit(withError:)` hides inside them.
private func exitProcess(_ status: Int32) -> Never { exit(status) }
