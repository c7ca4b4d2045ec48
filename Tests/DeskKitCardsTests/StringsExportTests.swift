import DeskKitCards
import DeskKitModel
import Foundation
import Testing

/// The web module's strings (`Web/strings.mjs`, made by `Scripts/export-strings.py`) are the tables' words, and
/// their directions ICU's: what `renderMessage` says is what `ConversationPage` says.
@Suite("The web module's strings")
struct StringsExportTests {
    @Test func theWebModulesStringsAreTheTablesInTheirDirections() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Web")
        let module = try String(contentsOf: root.appendingPathComponent("strings.mjs"), encoding: .utf8)
        let start = try #require(module.range(of: "export const TABLES = "))
        let json = try JSONValue.parse(Array(module[start.upperBound...].dropLast(2).utf8))
        for language in InterfaceLanguage.available {
            let entry = try #require(json[language.tag], "no \(language.tag) in Web/strings.mjs")
            #expect(entry["dir"]?.stringValue == language.direction, "\(language.tag)")
            let strings = try #require(entry["strings"]?.objectValue)
            #expect(strings.members.count >= 16)
            for member in strings.members {
                let string = try #require(InterfaceString.all.first { $0.key == member.key }, "\(member.key)")
                if let text = member.value.stringValue {
                    #expect(text == language.text(string), "\(language.tag) \(member.key)")
                } else {
                    for count in 0...5 {
                        let form = language.pluralCategory(Double(count))
                        let text = member.value[form]?.stringValue ?? member.value["other"]?.stringValue
                        #expect(
                            text?.replacingOccurrences(of: "{count}", with: String(count))
                                == language.text(string, count: count), "\(language.tag) \(member.key) \(count)")
                    }
                }
            }
        }
    }
}
