import ArgumentParser
import DeskKitJobStore
import DeskKitModel
import DeskKitServer
import Foundation

/// `deskkit jobs`: what a durable store holds, and the operator's hands on it.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "List, retry and purge the enrichment jobs of a store (while deskkit serve runs, too).",
        subcommands: [List.self, Retry.self, Purge.self]
    )

    /// The store option every subcommand shares.
    struct StoreOptions: ParsableArguments {
        @Option(
            name: .long,
            help:
                "The store: sqlite:PATH or postgres://USER@HOST/DATABASE (default: deskkit serve's, its variable's, else sqlite:deskkit-state.sqlite)."
        )
        var store: String?

        func open() async throws -> any JobStore {
            let text =
                store ?? ServerConfiguration.environmentValue(of: "store", in: ProcessInfo.processInfo.environment)
            var location = StoreLocation.default
            if let text {
                do { location = try StoreLocation(parsing: text) } catch {
                    throw Failure(description: "--store: \(error.detail)", exitStatus: .usage)
                }
            }
            if let path = location.sqlitePath, !FileManager.default.fileExists(atPath: path) {
                throw Failure(description: "no store at \(path)", exitStatus: .noInput)
            }
            if location == .memory {
                throw Failure(
                    description:
                        "--store memory lives inside one deskkit serve process; name a sqlite:PATH or postgres:// URL",
                    exitStatus: .usage)
            }
            do {
                return try await location.open()
            } catch {
                throw Failure(description: "cannot open the job store: \(error.detail)", exitStatus: .ioError)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print jobs, newest first, as JSON lines {message_id, channel_url, state, attempts, accepted_at, next_attempt_at, last_error}."
        )
        @OptionGroup var options: StoreOptions

        @Option(name: .long, help: "Only jobs in this state: queued, running, done or failed.")
        var state: JobState?

        @Option(name: .long, help: "At most this many jobs.")
        var limit: Int = 100

        func run() async throws {
            let store = try await options.open()
            let jobs = try await store.list(state: state, limit: max(0, limit))
            await store.close()
            var out = Output.stdout()
            defer { out.flush() }
            for job in jobs { out.line(job.json) }
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Queue failed jobs again, due now, with a new retry horizon: the IDs given, or every failed one with --failed."
        )
        @OptionGroup var options: StoreOptions

        @Flag(name: .long, help: "Every failed job.")
        var failed = false

        @Argument(help: "Message ids of failed jobs.")
        var ids: [Int64] = []

        func validate() throws {
            if failed == !ids.isEmpty { throw ValidationError("give message IDs or --failed (not both)") }
        }

        func run() async throws {
            let store = try await options.open()
            let count = try await store.retry(failed ? nil : ids, now: Date())
            await store.close()
            print("\(count) job\(count == 1 ? "" : "s") queued again")
        }
    }

    struct Purge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Delete done jobs last updated longer ago than DURATION (their message ids are no longer duplicates)."
        )
        @OptionGroup var options: StoreOptions

        @Option(name: .long, help: "An age: 90s, 30m, 12h or 7d.", transform: Duration.argument)
        var doneBefore: Duration

        func run() async throws {
            let store = try await options.open()
            let count = try await store.purge(doneBefore: Date().addingTimeInterval(-(doneBefore / .seconds(1))))
            await store.close()
            print("\(count) done job\(count == 1 ? "" : "s") purged")
        }
    }
}

extension JobState: ExpressibleByArgument {}
