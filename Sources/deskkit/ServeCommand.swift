import ArgumentParser
import DeskKitModel
import DeskKitPreview
import DeskKitServer
import Foundation
import Logging
import NIOCore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the enrichment server: Sendbird webhooks in, URL previews written into messages.",
        discussion: """
            Routes: POST /webhooks/sendbird (signed with x-sendbird-signature; answers at once, works \
            afterwards) and GET /health are open; POST /v1/preview ({"text"} or {"url"}), POST /v1/decode \
            (JSON lines of envelopes) and GET /metrics (Prometheus) need Authorization: Bearer KEY, one of \
            --api-keys (better given as DESKKIT_API_KEYS, which other users cannot read in the process list). \
            Settings come from flags, then the environment:
            \(ServerConfiguration.environmentVariables.map { "  \($0.name): \($0.meaning)" }.joined(separator: "\n"))
            Jobs are kept in a SQLite file (--store, default sqlite:deskkit-state.sqlite) or, for several \
            instances, in PostgreSQL (--store postgres://USER:PASSWORD@HOST:PORT/DATABASE, which also shares \
            the preview cache): a webhook is answered 200 once its job is committed, and a restart goes on \
            with what was left; \
            `deskkit jobs` lists and retries them. SIGTERM or SIGINT stops accepting and finishes running \
            work within the grace period; unfinished jobs stay in the store. With --store memory, what is \
            left is handed back instead (logged, and written to --hand-back as JSON lines).
            """
    )

    // Each setting's flag; its help is the meaning in the settings table (ServerConfiguration.settings).
    @Option(name: .long, help: help("DESKKIT_HOST")) var host: String?
    @Option(name: .long, help: help("DESKKIT_PORT")) var port: String?
    @Option(name: .long, help: help("DESKKIT_API_BASE")) var apiBase: String?
    @Option(name: .long, help: help("SENDBIRD_APP_ID")) var appID: String?
    @Option(name: .long, help: help("DESKKIT_API_KEYS")) var apiKeys: String?
    @Option(name: .long, help: help("DESKKIT_RATE_LIMIT")) var rateLimit: String?
    @Option(name: .long, help: help("DESKKIT_RATE_BURST")) var rateBurst: String?
    @Flag(name: .long, help: help("DESKKIT_ALLOW_PRIVATE")) var allowPrivate = false
    @Flag(name: .customLong("no-oembed"), help: help("DESKKIT_OEMBED")) var noOEmbed = false
    @Flag(name: .long, help: help("DESKKIT_IMAGE_PROBE")) var noImageProbe = false
    @Option(name: .long, help: help("DESKKIT_QUEUE_CAPACITY")) var queueCapacity: String?
    @Option(name: .long, help: help("DESKKIT_WORKERS")) var workers: String?
    @Option(name: .long, help: help("DESKKIT_FETCH_TIMEOUT")) var fetchTimeout: String?
    @Option(name: .long, help: help("DESKKIT_USER_AGENT")) var userAgent: String?
    @Option(name: .long, help: help("DESKKIT_MAX_BODY_BYTES")) var maxBodyBytes: String?
    @Option(name: .long, help: help("DESKKIT_SHUTDOWN_GRACE")) var shutdownGrace: String?
    @Option(name: .long, help: help("DESKKIT_STORE")) var store: String?
    @Option(name: .long, help: help("DESKKIT_RETRY_HORIZON")) var retryHorizon: String?
    @Option(name: .long, help: help("DESKKIT_JOB_LEASE")) var jobLease: String?
    @Option(name: .long, help: help("DESKKIT_STORE_TIMEOUT")) var storeTimeout: String?
    @Option(name: .long, help: help("DESKKIT_DEFER_ENRICHMENT_ABOVE")) var deferEnrichmentAbove: String?

    /// A flag's help: the setting's meaning and its variable. Values are read as text and checked by the
    /// table, so that one start-up names every bad value at once.
    static func help(_ variable: String) -> ArgumentHelp {
        ArgumentHelp("\(ServerConfiguration.setting(variable)?.meaning ?? "") (\(variable)).")
    }

    @Option(
        name: .long, help: "With --store memory: file to append the jobs not finished at shutdown to, as JSON lines.")
    var handBack: String?

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func run() async throws {
        var flags: [String: String] = [:]
        flags["DESKKIT_HOST"] = host
        flags["DESKKIT_PORT"] = port
        flags["DESKKIT_API_BASE"] = apiBase
        flags["SENDBIRD_APP_ID"] = appID
        flags["DESKKIT_API_KEYS"] = apiKeys
        flags["DESKKIT_RATE_LIMIT"] = rateLimit
        flags["DESKKIT_RATE_BURST"] = rateBurst
        flags["DESKKIT_ALLOW_PRIVATE"] = allowPrivate ? "1" : nil
        flags["DESKKIT_OEMBED"] = noOEmbed ? "0" : nil
        flags["DESKKIT_IMAGE_PROBE"] = noImageProbe ? "0" : nil
        flags["DESKKIT_QUEUE_CAPACITY"] = queueCapacity
        flags["DESKKIT_WORKERS"] = workers
        flags["DESKKIT_FETCH_TIMEOUT"] = fetchTimeout
        flags["DESKKIT_USER_AGENT"] = userAgent
        flags["DESKKIT_MAX_BODY_BYTES"] = maxBodyBytes
        flags["DESKKIT_SHUTDOWN_GRACE"] = shutdownGrace
        flags["DESKKIT_STORE"] = store
        flags["DESKKIT_RETRY_HORIZON"] = retryHorizon
        flags["DESKKIT_JOB_LEASE"] = jobLease
        flags["DESKKIT_STORE_TIMEOUT"] = storeTimeout
        flags["DESKKIT_DEFER_ENRICHMENT_ABOVE"] = deferEnrichmentAbove
        let configuration: ServerConfiguration
        do {
            configuration = try ServerConfiguration.resolve(
                flags: flags, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw Failure(description: "bad configuration: \(error)", exitStatus: 64)
        }
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level \(logLevel) is not a level")
        }
        var logger = Logger(label: "deskkit.server")
        logger.logLevel = level
        let handBackPath = handBack
        let log = logger
        if configuration.store != .memory, handBackPath != nil {
            throw Failure(
                description: "--hand-back is for --store memory; \(configuration.store) keeps unfinished jobs",
                exitStatus: 64)
        }
        let jobStore: (any JobStore)?
        do {
            jobStore = try await configuration.store.open(timeout: configuration.storeTimeout, logger: logger)
        } catch {
            throw Failure(description: "cannot open the job store: \(error.detail)", exitStatus: 74)
        }
        // On PostgreSQL the instances share their preview cache, too.
        let sharedPreviews: (any SharedPreviewCache)? = (jobStore as? PostgresJobStore)?.previewCache
        let server = EnrichmentServer(
            configuration: configuration, logger: logger, store: jobStore, sharedPreviews: sharedPreviews,
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
        let app = server.makeApplication(onServerRunning: { channel in
            log.info("listening", metadata: ["address": .string(channel.localAddress?.description ?? "?")])
        })
        do {
            try await app.runService()
            await jobStore?.close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE || error.errnoCode == EACCES {
            let why =
                error.errnoCode == EADDRINUSE ? "the address is in use (pick another --port)" : "permission denied"
            throw Failure(
                description: "cannot listen on \(configuration.host):\(configuration.port): \(why)", exitStatus: 74)
        }
    }
}
