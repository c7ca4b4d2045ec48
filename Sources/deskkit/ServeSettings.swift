import ArgumentParser
import DeskKitServer

/// `deskkit serve`'s settings on its command line, read off the table of settings
/// (``ServerConfiguration/settings``) and nothing else: each setting's flag is named after its key
/// (`fetch_timeout` is `--fetch-timeout VALUE` or `--fetch-timeout=VALUE`; a switch that turns a setting off is
/// `--no-` and the key: `--no-oembed`), and its help is its setting's meaning, variable and default. No option
/// is declared a second time: swift-argument-parser hands over what it does not know, and this reads it.
enum ServeSettings {
    /// The settings given in `arguments` (what swift-argument-parser left), keyed by variable, as
    /// `ServerConfiguration.resolve(flags:environment:file:)` takes them (a switch gives the value it stands
    /// for). Throws every argument that is no setting's flag, or lacks its value, at once.
    static func given(_ arguments: [String]) throws(ConfigurationError) -> [String: String] {
        var given: [String: String] = [:]
        var problems: [ConfigurationError.Problem] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument.hasPrefix("--") else {
                problems.append(.init(setting: "\"\(argument.prefix(40))\"", problem: "is not an option's value"))
                continue
            }
            let (name, inline) =
                argument.firstIndex(of: "=").map {
                    (String(argument[..<$0]), String(argument[argument.index(after: $0)...]))
                }
                ?? (argument, nil)
            guard let setting = flags[name] else {
                problems.append(
                    .init(setting: name, problem: "is not an option of deskkit serve (see deskkit serve --help)"))
                // What follows it, unless a flag, was meant as its value.
                if inline == nil, rest.first?.hasPrefix("--") == false { rest = rest.dropFirst() }
                continue
            }
            if let value = setting.flagSets {
                if inline != nil { problems.append(.init(setting: name, problem: "takes no value")) }
                given[setting.variable] = value
            } else if let value = inline ?? rest.first.flatMap({ $0.hasPrefix("--") ? nil : $0 }) {
                if inline == nil { rest = rest.dropFirst() }
                given[setting.variable] = value
            } else {
                problems.append(.init(setting: name, problem: "needs a value"))
            }
        }
        guard problems.isEmpty else { throw ConfigurationError(problems: problems) }
        return given
    }

    /// Every setting with a flag, by flag.
    private static let flags = Dictionary(
        uniqueKeysWithValues: ServerConfiguration.settings.compactMap { s in s.flag.map { ($0, s) } })

    /// The help's SETTINGS section, laid out as swift-argument-parser lays out options: the flag (and its
    /// value's name) in the first 26 columns, the help wrapped at `columns` under it.
    static func help(columns: Int = 80) -> String {
        var lines = ["SETTINGS:"]
        for setting in ServerConfiguration.settings {
            guard let flag = setting.flag else { continue }
            let head = "  \(flag)" + (setting.flagSets == nil ? " <\(flag.dropFirst(2))>" : "")
            let words = setting.help.split(separator: " ")
            var line = head.count < 26 ? head.padding(toLength: 26, withPad: " ", startingAt: 0) : ""
            if line.isEmpty {
                lines.append(head)
                line = String(repeating: " ", count: 26)
            }
            var first = true
            for word in words {
                if !first && line.count + 1 + word.count > columns {
                    lines.append(line)
                    line = String(repeating: " ", count: 26)
                    first = true
                }
                line += (first ? "" : " ") + word
                first = false
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension ArgumentHelp {
    /// The help of the setting whose key is `key`, for another command's option that shares it (`deskkit
    /// preview --preview-hosts-deny`): what it means, its variable and its default.
    static func setting(_ key: String) -> ArgumentHelp {
        ArgumentHelp(ServerConfiguration.setting(key: key)?.help ?? "")
    }
}
