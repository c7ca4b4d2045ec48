import DeskKitServer
import Foundation
import Testing

/// The server article's table of settings is the declarations' (`ServerConfiguration.settings`): written
/// from them, so that a setting added, renamed or given another default is in the documentation as it is in
/// `deskkit serve --help`.
@Suite("Settings table")
struct SettingsTableTests {
    @Test func theArticlesTableIsTheDeclarations() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/DeskKitServer/Documentation.docc/DeskKitServer.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let table = ServerConfiguration.settingsTable
        #expect(
            text.contains(
                "<!-- settings table: ServerConfiguration.settingsTable -->\n\(table)\n<!-- end of the settings table -->"
            ),
            "replace the article's table with:\n\(table)")
        #expect(ServerConfiguration.settings.allSatisfy { table.contains("`\($0.variable)`") })
    }
}
