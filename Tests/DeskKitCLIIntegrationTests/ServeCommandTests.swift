import DeskKitServer
import DeskKitTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("deskkit serve")
struct ServeCommandTests {
    @Test func badConfigurationStopsStartUpWithAClearMessage() async throws {
        let noToken = try await CLI.run(["serve"], environment: ["SENDBIRD_APP_ID": "app"])
        #expect(noToken.status == 64)
        #expect(noToken.stderr.contains("SENDBIRD_API_TOKEN is required"))
        let badPort = try await CLI.run(
            ["serve", "--port", "70000"], environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"])
        #expect(badPort.status == 64)
        #expect(
            badPort.stderr.contains("--port \"70000\" is not a whole number in 0...65535"), "named by the flag used")
        #expect(!badPort.stderr.contains("Usage"))
        // Every problem at once, each named as it was given.
        let several = try await CLI.run(
            ["serve", "--workers", "0"],
            environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app", "DESKKIT_PORT": "x"])
        #expect(several.status == 64)
        #expect(several.stderr.contains("DESKKIT_PORT \"x\" is not a whole number"))
        #expect(several.stderr.contains("--workers \"0\" is not a whole number"))
        let badBase = try await CLI.run(
            ["serve"], environment: ["SENDBIRD_API_TOKEN": "t", "DESKKIT_API_BASE": "api.example.com"])
        #expect(badBase.stderr.contains("DESKKIT_API_BASE \"api.example.com\" is not an http(s) URL"))
        // Every flag a setting names, when used, is named by that flag; the variables are listed in the help.
        let flags = try await CLI.run(
            ["serve", "--job-lease", "0", "--store-timeout", "x", "--retry-horizon", "1y", "--store", "mysql://x"],
            environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"])
        for flag in ["--job-lease \"0\"", "--store-timeout \"x\"", "--retry-horizon \"1y\"", "--store"] {
            #expect(flags.stderr.contains(flag), "\(flag): \(flags.stderr)")
        }
        // A settings file's problems are named by the file and the key.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("deskkit-\(UUID().uuidString).json")
        try Data(#"{"port": 70000, "wrokers": 2}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let badFile = try await CLI.run(["serve", "--config", file.path], environment: ["SENDBIRD_API_TOKEN": "t"])
        #expect(badFile.status == 64)
        #expect(badFile.stderr.contains("\(file.path): port \"70000\" is not a whole number"), "\(badFile.stderr)")
        #expect(badFile.stderr.contains("\(file.path): wrokers is not a setting of deskkit serve"))
    }

    /// swift-configuration reads the settings: with `CONFIG_ACCESS_LOG_FILE` set, every lookup is written there,
    /// with the source that answered it, and the secrets (the token, the keys, the store) are redacted.
    @Test func settingsLookupsAreLoggedWithTheirSecretsRedacted() async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("deskkit-access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let token = "token-nobody-may-read-42"
        let r = try await CLI.run(
            ["serve", "--workers", "3", "--store", "postgres://deskkit:pass-word-77@127.0.0.1:1/db", "--port", "x"],
            environment: [
                "SENDBIRD_API_TOKEN": token, "SENDBIRD_APP_ID": "app", "CONFIG_ACCESS_LOG_FILE": log.path,
                "DESKKIT_API_KEYS": "key-nobody-may-read-0042",
            ])
        #expect(r.status == 64 && r.stderr.contains("--port \"x\" is not a whole number"))
        let lines = try String(contentsOf: log, encoding: .utf8)
        #expect(lines.contains("workers -> \"3\" - provided by InMemoryProvider[flags]"), "\(lines)")
        #expect(lines.contains("api_token -> \"<REDACTED>\""), "\(lines)")
        #expect(lines.contains("store -> \"<REDACTED>\""))
        for secret in [token, "pass-word-77", "key-nobody-may-read-0042"] { #expect(!lines.contains(secret)) }
    }

    /// `deskkit serve`'s settings' flags are read off the table of settings (`ServerConfiguration.settings`)
    /// and declared nowhere else: every setting's flag is listed with its meaning and variable, laid out as
    /// swift-argument-parser lays out the other options, every flag reaches its setting (a bad value is named
    /// by its flag), and what is no flag of a setting, or lacks its value, is refused by name.
    @Test func everySettingIsAnOptionInTheHelp() async throws {
        let help = try await CLI.run(["serve", "--help"]).stdout
        #expect(ServerConfiguration.settings.count >= 16)
        let options = help.components(separatedBy: "SETTINGS:").last ?? ""
        for setting in ServerConfiguration.settings {
            if let flag = setting.flag {
                #expect(options.contains("  \(flag)"), "\(flag) is an option")
                // A switch with the value it stands for: `--no-oembed` … (DESKKIT_OEMBED=0).
                let value = setting.flagSets.map { "=\($0)" } ?? ""
                #expect(options.contains("(\(setting.variable)\(value)"), "\(setting.variable) listed")
            } else {
                #expect(help.contains(setting.variable), "\(setting.variable) named")
            }
        }
        // And every option of the section is a setting's: the options are named after the settings' keys.
        let flags = Set(ServerConfiguration.settings.compactMap(\.flag))
        let listed = options.split(separator: "\n").prefix { !$0.hasPrefix("OPTIONS") }.compactMap { line in
            line.hasPrefix("  --") ? line.dropFirst(2).split(separator: " ").first.map(String.init) : nil
        }
        #expect(listed.count == flags.count && Set(listed) == flags, "\(Set(listed).symmetricDifference(flags))")
        // Each default as the configuration has it, written as a setting is.
        for shown in [
            "DESKKIT_FETCH_TIMEOUT; default 10s", "DESKKIT_REFUSAL_TTL; default 10m", "DESKKIT_PORT; default 8080",
        ] {
            #expect(
                options.replacingOccurrences(of: "\n                          ", with: " ").contains(shown), "\(shown)")
        }
        let lines = options.split(separator: "\n").prefix { !$0.hasPrefix("OPTIONS") && !$0.isEmpty }
        #expect(lines.count > 20 && lines.allSatisfy { $0.hasPrefix("  ") }, "laid out as swift-argument-parser does")
        #expect(help.contains("OPTIONS:\n  --hand-back") && help.contains("-h, --help"), "the other options follow")
        #expect(try await CLI.run(["serve", "-h"]).stdout == help)
        // Every option with a value reaches its setting: a value none takes is named by its flag.
        let valued = ServerConfiguration.settings.compactMap { s in s.flagSets == nil ? s.flag : nil }
            .filter { $0 != "--host" && $0 != "--user-agent" }  // any text is a host or a User-Agent
        let all = try await CLI.run(
            ["serve"] + valued.map { "\($0)=!bad!" }, environment: ["SENDBIRD_API_TOKEN": "t"])
        #expect(all.status == 64)
        for flag in valued { #expect(all.stderr.contains("\(flag) "), "\(flag): \(all.stderr)") }
        let unknown = try await CLI.run(
            ["serve", "--prot", "8080"], environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.hasSuffix(
                "bad configuration: --prot is not an option of deskkit serve (see deskkit serve --help)\n"),
            "named, and its value taken as its: \(unknown.stderr)")
        let misused = try await CLI.run(
            ["serve", "--no-oembed=1", "stray", "--port"],
            environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"])
        #expect(misused.status == 64)
        #expect(
            misused.stderr.contains(
                #"--no-oembed takes no value; "stray" is not an option's value; --port needs a value"#),
            "\(misused.stderr)")
    }

    /// The real binary starts, answers, and stops on SIGTERM with exit status 0.
    @Test func startsServesAndStopsGracefully() async throws {
        // The default store, deskkit-state.sqlite, is made in the working directory.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "deskkit-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, port, log) = try await CrashRecoveryTests.serveLogged(
            ["--api-base", "http://127.0.0.1:9"], in: directory,
            environment: ["SENDBIRD_API_TOKEN": "secret-for-this-test"])
        defer { if process.isRunning { process.terminate() } }
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(#""status":"ok""#))
        #expect(!log.text.contains("secret-for-this-test"))
        process.terminate()  // SIGTERM
        await CLI.exit(of: process)
        #expect(process.terminationStatus == 0)
    }

    /// A taken port is named with its address, one line, no usage.
    @Test func aTakenPortSaysWhichAddressAndPort() async throws {
        let (fd, port) = try LoopbackSocket.open(listening: true)
        defer { close(fd) }
        let r = try await CLI.run(
            ["serve", "--port", "\(port)", "--store", "memory"],
            environment: ["SENDBIRD_API_TOKEN": "t", "SENDBIRD_APP_ID": "app"])
        #expect(r.status == 74)
        #expect(r.stderr.contains("cannot listen on 127.0.0.1:\(port): the address is in use"))
        #expect(!r.stderr.contains("Usage"))
    }
}
