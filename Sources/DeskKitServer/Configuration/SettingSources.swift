import Configuration
import Synchronization

/// Where the settings are read from: one swift-configuration `ConfigReader`, asked for each setting by its
/// key (``ServerSetting/key``: `port`, `fetch_timeout`), whose providers' order is the precedence.
///
/// `deskkit serve` builds it over three providers, highest first — its flags and a `SettingsFile` as
/// `InMemoryProvider`s, the environment as an `EnvironmentVariablesProvider` whose keys are the settings'
/// variables (`fetch_timeout` is `DESKKIT_FETCH_TIMEOUT`) — and learns from the reader's access events which
/// provider answered, to name a value at fault by its flag, its variable or the file's key. An application
/// hands ``ServerConfiguration/init(reader:)`` a reader of its own; a value at fault is then named by its key.
/// Secrets are marked so in every provider and every read; a reader started with `CONFIG_ACCESS_LOG_FILE` set
/// logs each lookup there with them redacted.
///
/// The file is read by `SettingsFile` rather than swift-configuration's `FileProvider<JSONSnapshot>`: that
/// provider answers the keys asked for and says nothing of the others, and a key no setting has (a typo,
/// `wrokers`) must be named; and a file value may be a list of strings (`api_keys`), which the setting reads
/// as the variable's comma-separated text. The command line is read by `deskkit serve` off the table of
/// settings; swift-configuration's `CommandLineArgumentsProvider` would skip an unknown flag silently and has no
/// `--no-` switches.
struct SettingSources {
    /// Where a value came from.
    enum Origin {
        /// A `deskkit serve` flag.
        case flag
        /// The environment.
        case environment
        /// A settings file, at the path.
        case file(String)
        /// A provider of a reader an application passed.
        case reader
    }

    /// What the sources hold for one setting.
    enum Lookup {
        /// No source has it.
        case absent
        /// The first source that has it gives it as the setting's type.
        case value(ServerSetting.Value, Origin)
        /// The first source that has it gives `text`, which does not read as the setting's type.
        case unreadable(text: String, Origin)
    }

    private let reader: ConfigReader
    /// Which provider answered the reader's last lookup, when the reader is ours.
    private let answers: AnsweringProvider?
    /// The origin of each of our reader's providers, in its order.
    private let origins: [Origin]
    /// Each of our providers' texts keyed by variable, in the reader's order: a value at fault as written.
    private let texts: [[String: String]]

    /// A reader an application built.
    init(reader: ConfigReader) {
        self.reader = reader
        answers = nil
        origins = []
        texts = []
    }

    /// `deskkit serve`'s reader: `flags` and `environment` keyed by variable (an empty text is not set), then
    /// the file's values as `SettingsFile.values` holds them.
    init(flags: [String: String], environment: [String: String], file: SettingsFile?) {
        let flags = flags.filter { !$0.value.isEmpty }
        let environment = environment.filter { !$0.value.isEmpty }
        let settings = ServerConfiguration.settings
        let variables = Dictionary(uniqueKeysWithValues: settings.map { ($0.key, $0.variable) })
        let secrets = Set(settings.filter(\.isSecret).map(\.variable))
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: Self.typed(flags)),
            KeyMappingProvider(
                upstream: EnvironmentVariablesProvider(
                    environmentVariables: environment, secretsSpecifier: .specific(secrets))
            ) { key in AbsoluteConfigKey([variables[key.components.joined(separator: ".")] ?? ""]) },
        ]
        var origins: [Origin] = [.flag, .environment]
        var texts = [flags, environment]
        if let file {
            providers.append(InMemoryProvider(name: file.path, values: Self.typed(file.values)))
            origins.append(.file(file.path))
            texts.append(file.values)
        }
        let answers = AnsweringProvider()
        reader = ConfigReader(providers: providers, accessReporter: answers)
        self.answers = answers
        self.origins = origins
        self.texts = texts
    }

    /// What the reader holds for `setting`, read as its ``ServerSetting/kind``.
    func lookUp(_ setting: ServerSetting) -> Lookup {
        let key = ConfigKey([setting.key])
        let secret = setting.isSecret
        let value: ServerSetting.Value? =
            switch setting.kind {
            case .text: reader.string(forKey: key, isSecret: secret).map { .text($0) }
            case .wholeNumber: reader.int(forKey: key, isSecret: secret).map { .wholeNumber($0) }
            case .onOff: reader.bool(forKey: key, isSecret: secret).map { .onOff($0) }
            case .duration:
                reader.string(forKey: key, as: DurationSetting.self, isSecret: secret).map { .duration($0.duration) }
            }
        if let value { return .value(value, origin(of: setting).origin) }
        if let answers {
            // Our sources hold what they cannot type as text: the provider that answered wrote it.
            guard answers.lastAnswer != nil else { return .absent }
            let answered = origin(of: setting)
            return .unreadable(text: answered.text ?? "", answered.origin)
        }
        // An application's reader may hold it as another type.
        let other: String? =
            reader.string(forKey: key, isSecret: secret)
            ?? reader.int(forKey: key, isSecret: secret).map { String($0) }
            ?? reader.double(forKey: key, isSecret: secret).map { String($0) }
            ?? reader.bool(forKey: key, isSecret: secret).map { String($0) }
        return other.map { .unreadable(text: $0, .reader) } ?? .absent
    }

    /// The source that answered the last lookup of `setting`, and its text as written (our reader's).
    private func origin(of setting: ServerSetting) -> (origin: Origin, text: String?) {
        guard let index = answers?.lastAnswer, index < origins.count else { return (.reader, nil) }
        return (origins[index], texts[index][setting.variable])
    }

    /// `value` of `setting` as its source wrote it (our reader's), or as a setting writes it: for a value
    /// outside the setting's range. Asked right after ``lookUp(_:)`` gave it.
    func text(of setting: ServerSetting, _ value: ServerSetting.Value) -> String {
        if let text = origin(of: setting).text { return text }
        return switch value {
        case .text(let text): text
        case .wholeNumber(let n): String(n)
        case .onOff(let on): on ? "1" : "0"
        case .duration(let d): DurationText.format(d)
        }
    }

    /// `texts` (keyed by variable) as values of their settings' types, for an `InMemoryProvider`; a text that
    /// is not of its setting's type stays text, which the reader then refuses as that type.
    private static func typed(_ texts: [String: String]) -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for (variable, text) in texts {
            guard let setting = ServerConfiguration.setting(variable) else { continue }
            let content: ConfigContent =
                switch setting.kind {
                case .wholeNumber: Int(text).map { .int($0) } ?? .string(text)
                case .onOff: onOff(text).map { .bool($0) } ?? .string(text)
                case .text, .duration: .string(text)
                }
            values[AbsoluteConfigKey([setting.key])] = ConfigValue(content, isSecret: setting.isSecret)
        }
        return values
    }

    /// `1`, `true`, `yes` or `0`, `false`, `no`, in any case: what the environment provider reads as a Bool.
    private static func onOff(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no": false
        default: nil
        }
    }
}

/// Which of a reader's providers answered its last lookup (its position in the reader's order, as the
/// access event lists the providers asked), or nil when none had the key: swift-configuration's answer to
/// where a value came from.
private final class AnsweringProvider: AccessReporter, Sendable {
    private let last = Mutex<Int?>(nil)

    var lastAnswer: Int? { last.withLock { $0 } }

    func report(_ event: AccessEvent) {
        // The providers are asked in order until one has the key — or holds it as another type and throws;
        // it is the last one asked.
        let answered = event.providerResults.last.flatMap { result -> Int? in
            if case .success(let lookup) = result.result, lookup.value == nil { return nil }
            return event.providerResults.count - 1
        }
        last.withLock { $0 = answered }
    }
}

/// A duration as a setting writes it (`DurationText`), read by swift-configuration.
struct DurationSetting: ExpressibleByConfigString {
    let duration: Duration
    init?(configString: String) {
        guard let duration = DurationText.parse(configString) else { return nil }
        self.duration = duration
    }
    var description: String { DurationText.format(duration) }
}
