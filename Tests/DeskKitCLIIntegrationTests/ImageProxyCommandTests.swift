import DeskKitServer
import DeskKitTestSupport
import Foundation
import Testing

/// `deskkit sign-image`, `deskkit previews forget` and the site policy of `deskkit preview`.
@Suite("deskkit sign-image, previews forget, preview's site policy")
struct ImageProxyCommandTests {
    @Test func signImagePrintsWhatTheServerWouldWrite() async throws {
        let keys = "new-key-0123456789abc,old-key-0123456789abc"
        let url = "https://cdn.example.org/p/ä.png?s=2"
        let signer = try ImageURLSigner(keys: keys, publicURL: "https://media.example.com")
        let flags = try await CLI.run([
            "sign-image", url, "--image-proxy-keys", keys, "--public-url", "https://media.example.com/",
        ])
        #expect(flags.status == 0)
        #expect(flags.stdout == signer.proxiedURL(for: url) + "\n")
        let environment = try await CLI.run(
            ["sign-image", url],
            environment: ["DESKKIT_IMAGE_PROXY_KEYS": keys, "DESKKIT_PUBLIC_URL": "https://media.example.com"])
        #expect(environment.stdout == flags.stdout)
        let notWeb = try await CLI.run([
            "sign-image", "javascript:alert(1)", "--image-proxy-keys", keys, "--public-url", "https://m.example",
        ])
        #expect(notWeb.status == 65)
        #expect(notWeb.stderr.contains("not an http(s) URL"))
        let short = try await CLI.run([
            "sign-image", url, "--image-proxy-keys", "short", "--public-url", "https://m.example",
        ])
        #expect(short.status == 64)
        #expect(short.stderr.contains("at least 16") && !short.stderr.contains("short,"))
        #expect(try await CLI.run(["sign-image", url], environment: [:]).status == 64)
    }

    @Test func previewRefusesADeniedHostWithoutFetching() async throws {
        // No fetch is made: a host that does not resolve answers with the policy, not a DNS error.
        let denied = try await CLI.run(["preview", "see https://tracker.invalid/x", "--preview-hosts-deny", "invalid"])
        #expect(denied.status == 1)
        let line = try #require(denied.lines.first)
        let error = try #require(try CLI.json(line)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "policy")
        let notAllowed = try await CLI.run(
            ["preview", "https://a.invalid/"], environment: ["DESKKIT_PREVIEW_HOSTS_ALLOW": "docs.example"])
        #expect((try CLI.json(notAllowed.lines[0])["error"] as? [String: Any])?["kind"] as? String == "policy")
        #expect(
            try await CLI.run(["preview", "https://a.invalid/", "--preview-hosts-deny", "not a host"]).status == 64)
    }

    @Test func previewsForgetDropsTheSharedCachesCards() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.makeDatabase()
        let database = String(url.split(separator: "/").last!.prefix { $0 != "?" })
        _ = try await cluster.psql(
            database,
            """
            CREATE TABLE IF NOT EXISTS deskkit_previews (url text PRIMARY KEY, expires_at timestamptz NOT NULL,
              fetching_until timestamptz, page_url text, site_name text, title text, description text, image text,
              error_kind text, error_detail text, details text);
            INSERT INTO deskkit_previews (url, expires_at, title) VALUES
              ('https://example.com/', now() + interval '1 hour', 'Stale'),
              ('https://example.com/ ru', now() + interval '1 hour', 'Устарело'),
              ('https://example.com/other', now() + interval '1 hour', 'Kept');
            """)
        let r = try await CLI.run(["previews", "forget", "https://example.com/", "--store", url])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == #"{"url":"https://example.com/","shared":2}"# + "\n")
        #expect(try await cluster.psql(database, "SELECT count(*) FROM deskkit_previews") == "1")
        // A SQLite store keeps no previews: said, not silently nothing.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forget-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await CLI.run(["jobs", "list", "--store", "sqlite:\(directory.path)/s.sqlite"])
        let sqlite = try await CLI.run([
            "previews", "forget", "https://example.com/", "--store", "sqlite:\(directory.path)/s.sqlite",
        ])
        #expect(sqlite.status == 64 || sqlite.status == 66)
    }
}
