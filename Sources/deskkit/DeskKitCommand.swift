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
            var command = try parseAsRoot()
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

/// The C library's `exit`, which the commands' own static `exit(withError:)` hides inside them.
private func exitProcess(_ status: Int32) -> Never { exit(status) }
