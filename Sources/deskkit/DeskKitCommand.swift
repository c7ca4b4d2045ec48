import ArgumentParser

@main
struct DeskKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deskkit",
        abstract: "Decode, check, filter and write the rich and admin messages of Sendbird Desk chats.",
        discussion: """
            Commands read and write JSON lines so that scripts and tests can drive them. Bad input never \
            stops a run: each bad line is answered or reported with what is wrong and where.
            """,
        subcommands: [DecodeCommand.self, FilterCommand.self, ValidateCommand.self, EncodeCommand.self, DetectCommand.self, ExtractCommand.self, PreviewCommand.self, DemoCommand.self, MutateCommand.self, ServeCommand.self]
    )
}
