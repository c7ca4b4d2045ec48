import DeskKitModel
import Foundation

/// A settings file (`deskkit serve --config deskkit.json`): one JSON object whose keys are the settings
/// keys (their variables without the prefix, in lower case), named like the flags (`port`, `store`, `api_keys`, `fetch_timeout`, `oembed`…).
///
/// ```json
/// {"port": 8080, "store": "sqlite:/var/lib/deskkit/state.sqlite", "fetch_timeout": "10s",
///  "api_keys": ["key-for-the-widget-0001", "key-for-prometheus-0002"], "oembed": false}
/// ```
///
/// A value is a string, a whole number, `true`/`false` (a switch's `1`/`0`) or a list of strings (joined
/// with commas: `api_keys`); it is then read as the setting's flag or variable is: the file is the lowest of
/// the three providers of the swift-configuration `ConfigReader` that
/// `ServerConfiguration.resolve(flags:environment:file:)` reads through. Flags override the environment, the
/// environment the file. A key no setting has, or a value of another type, is a problem
/// of the ``ConfigurationError`` that `ServerConfiguration.resolve(flags:environment:file:)` throws,
/// named by the file and the key.
package struct SettingsFile: Sendable, Hashable {
    /// Where the file was read from, to name it in problems.
    package var path: String
    /// Each setting's text, keyed by its variable (as `ServerConfiguration.resolve(flags:environment:file:)`
    /// takes the flags).
    package var values: [String: String]
    /// Its keys that no setting has and its values of another type: reported with the settings' own
    /// problems, all at once.
    package var problems: [ConfigurationError.Problem]

    /// The largest settings file read: 1 MiB.
    package static let maxBytes = 1 << 20

    /// Reads the file at `path` (at most ``maxBytes``).
    package init(contentsOf path: String) throws(ConfigurationError) {
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw ConfigurationError(problems: [.init(setting: path, problem: "cannot be read")])
        }
        defer { try? file.close() }
        let data = (try? file.read(upToCount: Self.maxBytes + 1)) ?? Data()
        try self.init(parsing: Array(data), path: path)
    }

    /// Reads `bytes`, the contents of the file at `path`.
    package init(parsing bytes: [UInt8], path: String) throws(ConfigurationError) {
        self.path = path
        guard bytes.count <= Self.maxBytes else {
            throw ConfigurationError(
                problems: [.init(setting: path, problem: "is over \(Self.maxBytes) bytes: not a settings file")])
        }
        let parsed: JSONValue
        do throws(JSONSyntaxError) { parsed = try JSONValue.parse(bytes) } catch {
            throw ConfigurationError(problems: [.init(setting: path, problem: "is not JSON: \(error)")])
        }
        guard case .object(let object) = parsed else {
            throw ConfigurationError(problems: [.init(setting: path, problem: "is not a JSON object of settings")])
        }
        var values: [String: String] = [:]
        var problems: [ConfigurationError.Problem] = []
        for member in object.members {
            let name = "\(path): \(member.key)"
            guard let setting = ServerConfiguration.setting(key: member.key) else {
                problems.append(.init(setting: name, problem: "is not a setting of deskkit serve"))
                continue
            }
            switch member.value {
            case .string(let text): values[setting.variable] = text
            case .integer(let n): values[setting.variable] = String(n)
            case .bool(let on): values[setting.variable] = on ? "1" : "0"
            case .array(let items):
                let texts = items.compactMap { if case .string(let s) = $0 { s } else { nil } }
                guard texts.count == items.count else {
                    problems.append(.init(setting: name, problem: "is a list of something else than strings"))
                    continue
                }
                values[setting.variable] = texts.joined(separator: ",")
            case .null: continue
            case .number, .object:
                problems.append(
                    .init(
                        setting: name, problem: "is not a string, a whole number, true or false, or a list of strings"))
            }
        }
        self.values = values
        self.problems = problems
    }
}
