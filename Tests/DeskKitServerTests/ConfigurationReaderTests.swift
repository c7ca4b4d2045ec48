import Configuration
import DeskKitServer
import Testing

/// An application embedding the server hands it a swift-configuration `ConfigReader` of its own: every
/// setting is read by its key, as its type, with the providers' order as the precedence.
@Suite("Configuration from a reader")
struct ConfigurationReaderTests {
    @Test func anApplicationsReaderGivesEverySettingByItsKey() throws {
        let reader = ConfigReader(providers: [
            InMemoryProvider(values: ["deskkit.port": 9191]),
            InMemoryProvider(values: [
                "deskkit.port": 9090, "deskkit.workers": 8, "deskkit.fetch_timeout": "3s", "deskkit.oembed": false,
                "deskkit.api_token": ConfigValue("t0k3n-of-the-app", isSecret: true), "deskkit.app_id": "app-1",
                "deskkit.store": "memory", "deskkit.retry_horizon": "2d", "deskkit.challenge_retries": 1,
            ]),
        ])
        let c = try ServerConfiguration(reader: reader.scoped(to: "deskkit"))
        #expect(c.port == 9191, "the first provider that has the key gives it")
        #expect(c.queue.workers == 8 && c.fetch.totalTimeout == .seconds(3) && !c.previews.oEmbed)
        #expect(c.apiToken == "t0k3n-of-the-app" && c.apiBase == "https://api-app-1.sendbird.com")
        #expect(c.store == .memory && c.retry.horizon == .seconds(2 * 86400) && c.retry.challenge.retries == 1)
        #expect(c.maxBodyBytes == 256 * 1024, "a key no provider has keeps its default")
    }

    /// A value at fault is named by its key — every one at once — whatever type the provider holds it as.
    @Test func problemsAreNamedByTheKey() {
        func problems(_ values: [AbsoluteConfigKey: ConfigValue]) -> String {
            do {
                _ = try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)))
                return ""
            } catch { return error.description }
        }
        let base: [AbsoluteConfigKey: ConfigValue] = ["api_token": "t", "app_id": "a"]
        #expect(
            problems(base.merging(["port": 70000, "workers": "many", "oembed": 2]) { $1 })
                == #"port "70000" is not a whole number in 0...65535; oembed "2" is not 1 or 0; "#
                + #"workers "many" is not a whole number in 1...4096"#)
        #expect(problems(base.merging(["port": true]) { $1 }) == #"port "true" is not a whole number in 0...65535"#)
        #expect(
            problems(["app_id": "a"])
                == "SENDBIRD_API_TOKEN is required (it signs webhooks and authenticates API calls)")
    }

    /// The configuration's description is the table's: every setting with a value, by its key, as a setting
    /// writes it, and no secret.
    @Test func theDescriptionListsEverySettingAndNoSecret() throws {
        let c = try ServerConfiguration.resolve(environment: [
            "SENDBIRD_API_TOKEN": "token-nobody-may-read-42", "SENDBIRD_APP_ID": "a",
            "DESKKIT_API_KEYS": "key-nobody-may-read-0042", "DESKKIT_STORE": "postgres://u:pass-word-77@127.0.0.1/db",
            "DESKKIT_PUBLIC_URL": "https://media.example", "DESKKIT_IMAGE_PROXY_KEYS": "proxy-key-nobody-may-read",
            "DESKKIT_OPERATOR_KEYS": "alice:operator-key-nobody-may-read",
            "DESKKIT_METRICS_KEYS": "scraper-key-nobody-may-read",
        ])
        let text = c.description
        for setting in ServerConfiguration.settings where setting.defaultText != nil || setting.isSecret {
            #expect(text.contains("\(setting.key) "), "\(setting.key) in \(text)")
        }
        #expect(text.contains("fetch_timeout 10s") && text.contains("port 8080") && text.contains("api_keys 1 API key"))
        for secret in [
            "token-nobody-may-read-42", "key-nobody-may-read-0042", "pass-word-77", "proxy-key-nobody",
            "operator-key-nobody", "scraper-key-nobody",
        ] {
            #expect(!text.contains(secret))
        }
    }
}
