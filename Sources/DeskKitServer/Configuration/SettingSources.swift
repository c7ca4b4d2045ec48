import Configuration

/// The places a setting is read from, highest first — `deskkit serve`'s flags, the environment, a
/// ``SettingsFile`` — as one swift-configuration `ConfigReader` over three providers: the flags and the file
/// as `InMemoryProvider`s, the environment as an `EnvironmentVariablesProvider` whose keys are the settings'
/// variables (`fetch_timeout` is `DESKKIT_FETCH_TIMEOUT`). Secrets are marked so in every provider and every
/// read; a reader started with `CONFIG_ACCESS_LOG_FILE` set logs each lookup there with them redacted.
///
/// The file is read by ``SettingsFile`` rather than swift-configuration's `FileProvider<JSONSnapshot>`: that
/// provider answers the keys asked for and says nothing of the others, and a key no setting has (a typo,
/// `wrokers`) must be named; and a file value may be a list of strings (`api_keys`), which the setting reads
/// as the variable's comma-separated text. The command line is swift-argument-parser's, which lays out
/// `deskkit serve --help` and refuses an unknown flag by name; swift-configuration's
/// `CommandLineArgumentsProvider` would skip it silently and has no `--no-` switches.
struct SettingSources {
    /// Where a value came from, in the order the sources are asked.
    enum Origin: Int {
        case flag, environment, file
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
    /// Each source's texts, by origin, keyed by variable: which source gives a setting (the reader asks them
    /// in this order, and an empty text is in none), and to name a value that cannot be read.
    private let texts: [[String: String]]

    /// `flags` and `environment` keyed by variable (an empty text is not set), the file's values as
    /// ``SettingsFile/values`` holds them.
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
        if let file { providers.append(InMemoryProvider(name: file.path, values: Self.typed(file.values))) }
        reader = ConfigReader(providers: providers)
        texts = [flags, environment, file?.values ?? [:]]
    }

    /// What the sources hold for `setting`, read as its ``ServerSetting/kind``.
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
        // The reader answers from the first source that has the key.
        guard let first = texts.firstIndex(where: { $0[setting.variable] != nil }),
            let origin = Origin(rawValue: first)
        else { return .absent }
        guard let value else { return .unreadable(text: text(of: setting, in: origin), origin) }
        return .value(value, origin)
    }

    /// The text `origin` gives `setting`, as it was written.
    func text(of setting: ServerSetting, in origin: Origin) -> String {
        texts[origin.rawValue][setting.variable] ?? ""
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

/// A duration as a setting writes it (``DurationText``), read by swift-configuration.
struct DurationSetting: ExpressibleByConfigString {
    let duration: Duration
    init?(configString: String) {
        guard let duration = DurationText.parse(configString) else { return nil }
        self.duration = duration
    }
    var description: String { DurationText.format(duration) }
}
