import ArgumentParser
import DeskKitJobStore
import DeskKitModel
import DeskKitPreview
import DeskKitServer
import DeskKitSharedPreviews
import Foundation
import Logging
import NIOCore
import ServiceLifecycle

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the enrichment server: Sendbird webhooks in, URL previews written into messages.",
        usage: "deskkit serve [--SETTING <value> …] [--config <file>] [--hand-back <path>] [--log-level <level>]",
        discussion: """
            Routes: POST /webhooks/sendbird (signed with x-sendbird-signature; answers at once, works \
            afterwards) and GET /health are open; POST /v1/preview ({"text"} or {"url"}), POST /v1/decode \
            (JSON lines of envelopes), the console's routes (GET /v1/inspect?url=, /v1/queue, /v1/jobs, \
            /v1/refusals; POST /v1/jobs/retry) and GET /metrics (Prometheus) need Authorization: Bearer KEY, one \
            of --api-keys (better given as its variable, which other users cannot read in the process list). The \
            operator's console, GET /console, asks for a key in the browser. \
            Settings come from the flags under SETTINGS (deskkit serve --help), then the environment (each flag's variable, named \
            after it), then --config FILE (a JSON object keyed by each variable without its prefix, in \
            lower case: {"port": 8080, "fetch_timeout": "10s", "api_keys": ["…"], "oembed": false}). Durations are written 500ms, 10s, 5m, 12h or 1d (a bare number is seconds). \
            The API token is SENDBIRD_API_TOKEN (or api_token in the file), never an option, so that other \
            users cannot read it in the process list. With CONFIG_ACCESS_LOG_FILE=PATH, every \
            setting's lookup and the source that gave it are written to PATH, the secrets redacted.

            Jobs are kept in a SQLite file (--store, default sqlite:deskkit-state.sqlite) or, for several \
            instances, in PostgreSQL (--store postgres://USER:PASSWORD@HOST:PORT/DATABASE, which also shares \
            the preview cache): a webhook is answered 200 once its job is committed, and a restart goes on \
            with what was left; \
            `deskkit jobs` lists and retries them. SIGTERM or SIGINT stops accepting and finishes running \
            work within the grace period; unfinished jobs stay in the store. With --store memory, queued jobs \
            are worked on during the grace too, and what is left is handed back (logged, and written to \
            --hand-back as JSON lines).

            Traces: with OTEL_EXPORTER_OTLP_ENDPOINT=URL (or OTEL_TRACES_EXPORTER=otlp), spans from each \
            webhook to its Platform API call are exported over OTLP/HTTP; the other standard OTEL_* \
            variables (OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER…) apply. Off \
            otherwise.
            """,
        // Its help is swift-argument-parser's with the settings' section, which is read off their table.
        helpNames: []
    )

    /// The settings' flags and values, read by ``ServeSettings`` off the table of settings.
    @Argument(parsing: .allUnrecognized, help: .hidden) var settings: [String] = []

    @Option(
        name: .long, help: "With --store memory: file to append the jobs not finished at shutdown to, as JSON lines.")
    var handBack: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A settings file: a JSON object keyed like the flags (port, store, api_keys, fetch_timeout…), under the environment and the flags.",
            valueName: "file"))
    var config: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Flag(name: .shortAndLong, help: "Show help information.") var help = false

    /// swift-argument-parser's help of the command, with the SETTINGS section before its options.
    static func helpText(columns: Int = 80) -> String {
        let help = DeskKitCommand.helpMessage(for: ServeCommand.self, columns: columns)
        guard let options = help.range(of: "OPTIONS:") else { return help + "\n" + ServeSettings.help() }
        return help[..<options.lowerBound] + ServeSettings.help(columns: columns) + "\n\n" + help[options.lowerBound...]
    }

    func run() async throws {
        if help {
            print(Self.helpText())
            return
        }
        let configuration: ServerConfiguration
        do {
            let file = try config.map { path throws(ConfigurationError) in try SettingsFile(contentsOf: path) }
            configuration = try ServerConfiguration.resolve(
                flags: ServeSettings.given(settings),
                environment: ProcessInfo.processInfo.environment, file: file)
        } catch {
            throw Failure(description: "bad configuration: \(error)", exitStatus: .usage)
        }
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level \(logLevel) is not a level")
        }
        let tracing: (service: any Service, logMetadata: Logger.MetadataProvider)?
        do {
            tracing = try ServeTracing.bootstrap(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw Failure(description: "bad OTEL_* tracing settings: \(error)", exitStatus: .usage)
        }
        var logger =
            tracing.map { Logger(label: "deskkit.server", metadataProvider: $0.logMetadata) }
            ?? Logger(label: "deskkit.server")
        logger.logLevel = level
        let handBackPath = handBack
        let log = logger
        if configuration.store != .memory, handBackPath != nil {
            throw Failure(
                description: "--hand-back is for --store memory; \(configuration.store) keeps unfinished jobs",
                exitStatus: .usage)
        }
        let jobStore: any JobStore
        do {
            // A PostgreSQL store's pools run as a service of the server's group (stopped after the queue).
            jobStore = try await configuration.openStore(pools: .service, logger: logger)
        } catch {
            throw Failure(description: "cannot open the job store: \(error.detail)", exitStatus: .ioError)
        }
        // On PostgreSQL the instances share their preview cache, too.
        var sharedPreviews: PostgresPreviewCache?
        if let postgres = jobStore as? PostgresJobStore {
            do {
                sharedPreviews = try await PostgresPreviewCache.open(sharing: postgres, logger: logger)
            } catch {
                await jobStore.close()
                throw Failure(
                    description: "cannot open the shared preview cache: \(error.detail)", exitStatus: .ioError)
            }
        }
        let server = EnrichmentServer(
            configuration: configuration, store: jobStore, logger: logger, sharedPreviews: sharedPreviews,
            handBack: handBackPath.map { path -> EnrichmentQueue.HandBack in
                { @Sendable jobs in
                    var lines = JSONWriter()
                    for job in jobs {
                        lines.write(job.json)
                        lines.append(UInt8(ascii: "\n"))
                    }
                    if !FileManager.default.fileExists(atPath: path) {
                        _ = FileManager.default.createFile(atPath: path, contents: nil)
                    }
                    guard let file = FileHandle(forWritingAtPath: path) else {
                        log.error("cannot write the hand-back file", metadata: ["path": .string(path)])
                        return
                    }
                    file.seekToEndOfFile()
                    lines.withUnsafeBufferPointer { file.write(Data(buffer: $0)) }
                    try? file.close()
                }
            })
        log.info("starting", metadata: ["configuration": .string(configuration.description)])
        for variable in ServerConfiguration.unknownVariables(in: ProcessInfo.processInfo.environment) {
            log.warning("not a setting of deskkit serve, ignored", metadata: ["variable": .string(variable)])
        }
        do {
            try await server.run(
                beside: [jobStore as? any Service].compactMap { $0 } + (tracing.map { [$0.service] } ?? []),
                onServerRunning: { channel in
                    log.info("listening", metadata: ["address": .string(channel.localAddress?.description ?? "?")])
                })
            await jobStore.close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EACCES {
            let why =
                error.errnoCode == EADDRINUSE ? "the address is in use (pick another --port)" : "permission denied"
            throw Failure(
                description: "cannot listen on \(configuration.host):\(configuration.port): \(why)",
                exitStatus: .ioError)
        }
    }
}
