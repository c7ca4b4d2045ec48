import ArgumentParser
import DeskKitCards
import DeskKitPreview
import Foundation

/// `--lang`: the language of what `deskkit demo` and `deskkit preview --html` show.
struct InterfaceLanguageOption: ParsableArguments {
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp(
            "The interface's language: \(InterfaceLanguage.available.map(\.tag).joined(separator: ", ")) (a BCP 47 tag such as ru-RU or zh-CN is matched to one; others fall back to English).",
            valueName: "tag"))
    var tag: String?

    /// The language asked for, or English; says on standard error when the tag has no table.
    var language: InterfaceLanguage {
        guard let tag else { return .english }
        if let language = InterfaceLanguage.matching(tag) { return language }
        FileHandle.standardError.write(Data("deskkit: no interface in \"\(tag.prefix(40))\"; English is used\n".utf8))
        return .english
    }
}

extension AcceptLanguage {
    /// An `--accept-language` value, checked.
    static func argument(_ text: String) throws -> AcceptLanguage {
        do { return try AcceptLanguage(text) } catch { throw ValidationError("--accept-language: \(error)") }
    }
}
