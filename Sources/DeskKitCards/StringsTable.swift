import DeskKitJSON

/// One language's strings table (`Strings/<tag>.json`): each ``InterfaceString``'s key to a text or to its
/// plural forms; `_language` names the language in itself.
struct StringsTable: Sendable {
    /// A key's entry.
    enum Entry: Sendable, Equatable {
        /// One text.
        case text(String)
        /// The text for each CLDR plural category used (`one`, `few`, `other`…).
        case plural([String: String])
    }

    /// Why a table cannot be read: what is wrong, and at which key.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The language's BCP 47 tag, the file's name.
    let tag: String
    /// The language's name in itself (`Русский`).
    let name: String
    let entries: [String: Entry]

    /// The table `tag` from its file's bytes.
    init(tag: String, json: [UInt8]) throws(Problem) {
        self.tag = tag
        let value: JSONValue
        do { value = try JSONValue.parse(json) } catch { throw Problem(description: "\(tag).json: \(error)") }
        guard let object = value.objectValue else { throw Problem(description: "\(tag).json: not an object") }
        if let duplicate = object.duplicateKeys.first {
            throw Problem(description: "\(tag).json: \(duplicate) appears twice")
        }
        var name: String?
        var entries: [String: Entry] = [:]
        for member in object.members {
            switch member.value {
            case .string(let text) where member.key == "_language": name = text
            case .string(let text): entries[member.key] = .text(text)
            case .object(let forms):
                var plural: [String: String] = [:]
                for form in forms.members {
                    guard let text = form.value.stringValue else {
                        throw Problem(description: "\(tag).json: \(member.key).\(form.key) is not a text")
                    }
                    plural[form.key] = text
                }
                guard plural["other"] != nil else {
                    throw Problem(description: "\(tag).json: \(member.key) has no `other` form")
                }
                entries[member.key] = .plural(plural)
            default:
                throw Problem(description: "\(tag).json: \(member.key) is neither a text nor plural forms")
            }
        }
        guard let name else { throw Problem(description: "\(tag).json: no _language") }
        self.name = name
        self.entries = entries
    }

    /// The tables compiled into the module (SwiftPM `.embedInCode`), by tag; a table that cannot be read is
    /// left out (its language falls back to English; the tests read every table).
    static let compiledIn: [String: StringsTable] = {
        var tables: [String: StringsTable] = [:]
        for (tag, bytes) in files {
            if let table = try? StringsTable(tag: tag, json: bytes) { tables[tag] = table }
        }
        return tables
    }()

    /// Each table file's bytes by its tag.
    static let files: [(tag: String, bytes: [UInt8])] = [
        ("en", PackageResources.en_json), ("zh-Hans", PackageResources.zh_Hans_json),
        ("ru", PackageResources.ru_json), ("ja", PackageResources.ja_json), ("ko", PackageResources.ko_json),
        ("es", PackageResources.es_json), ("de", PackageResources.de_json), ("ar", PackageResources.ar_json),
    ]
}

extension StringsTable {
    /// What is wrong with this table against English's and the language's plural rules: a key missing or
    /// unknown, a text where English has plural forms (or the reverse), a plural form missing or one the
    /// language does not use, a `{name}` English's text does not have or one it lacks (a plural form may leave
    /// out `{count}`: Arabic writes "two stars" as a word).
    func problems(english: StringsTable, pluralCategories: Set<String>) -> [String] {
        var problems: [String] = []
        let known = Set(InterfaceString.all.map(\.key))
        for key in known.subtracting(entries.keys).sorted() { problems.append("\(tag).json: \(key) is missing") }
        for key in Set(entries.keys).subtracting(known).sorted() { problems.append("\(tag).json: \(key) is unknown") }
        for key in known.sorted() {
            guard let entry = entries[key], let model = english.entries[key] else { continue }
            switch (entry, model) {
            case (.text(let text), .text(let englishText)):
                let (have, want) = (Self.placeholders(text), Self.placeholders(englishText))
                if have != want {
                    problems.append("\(tag).json: \(key) has \(have.sorted()), English \(want.sorted())")
                }
            case (.plural(let forms), .plural(let englishForms)):
                for missing in pluralCategories.subtracting(forms.keys).sorted() {
                    problems.append("\(tag).json: \(key) has no `\(missing)` form")
                }
                for unused in Set(forms.keys).subtracting(pluralCategories).sorted() {
                    problems.append("\(tag).json: \(key) has a `\(unused)` form the language does not use")
                }
                let want = Self.placeholders(englishForms["other"] ?? "")
                for (form, text) in forms {
                    let have = Self.placeholders(text)
                    if have != want && have != want.subtracting(["{count}"]) {
                        problems.append("\(tag).json: \(key).\(form) has \(have.sorted()), English \(want.sorted())")
                    }
                }
            default:
                problems.append("\(tag).json: \(key) is a text in one table and plural forms in the other")
            }
        }
        return problems
    }

    /// The `{name}`s of `text`.
    static func placeholders(_ text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

extension InterfaceLanguage {
    /// The tags of the table files compiled in (a table that cannot be read is among them, not in
    /// ``available``).
    package static var tableTags: [String] { StringsTable.files.map(\.tag) }

    /// The text of table `tag`'s file.
    package static func tableFile(_ tag: String) -> String? {
        StringsTable.files.first { $0.tag == tag }.map { String(decoding: $0.bytes, as: UTF8.self) }
    }

    /// What is wrong with this language's table (nothing, when it is whole).
    package func tableProblems() -> [String] {
        Self.tableFile(tag).map { Self.problems(inTable: tag, json: $0) } ?? ["no table \(tag)"]
    }

    /// What is wrong with `json` as the table of `tag`.
    package static func problems(inTable tag: String, json: String) -> [String] {
        do {
            let table = try StringsTable(tag: tag, json: Array(json.utf8))
            guard let english = StringsTable.compiledIn["en"] else { return ["no English table"] }
            return table.problems(english: english, pluralCategories: InterfaceLanguage.categories(of: tag))
        } catch {
            return [error.description]
        }
    }
}
