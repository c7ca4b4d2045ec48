import ArgumentParser
import DeskKitJobStore
import DeskKitModel
import DeskKitServer
import DeskKitSharedPreviews

/// `deskkit previews`: the operator's hands on the preview cache a store shares.
struct PreviewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previews",
        abstract: "Take back cached cards of the preview cache a PostgreSQL store shares.",
        subcommands: [Forget.self]
    )

    struct Forget: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop a URL's cached card and refusal (in every language) from the store's shared cache.",
            discussion: """
                Prints {"url", "shared"}: the entries dropped. The next message with the URL gets a fresh card. \
                Only a PostgreSQL store shares its cache; each deskkit serve also keeps cards in memory for up \
                to an hour: DELETE /v1/previews?url=… on an instance drops both.
                """)

        @Argument(help: "The URL whose card to take back.")
        var url: String

        @OptionGroup var options: JobsCommand.StoreOptions

        func run() async throws {
            let store = try await options.open()
            guard let postgres = store as? PostgresJobStore else {
                await store.close()
                throw Failure(
                    description:
                        "this store keeps no previews (only a postgres:// store shares them; DELETE /v1/previews?url=… drops a server's own)",
                    exitStatus: .usage)
            }
            let forgotten: Int
            do {
                let cache = try await PostgresPreviewCache.open(sharing: postgres)
                forgotten = try await cache.forget(url)
            } catch {
                await store.close()
                throw Failure(description: "cannot reach the shared preview cache: \(error)", exitStatus: .ioError)
            }
            await store.close()
            var out = Output.stdout()
            out.line(["url": .string(url), "shared": .integer(Int64(forgotten))] as JSONValue)
            out.flush()
        }
    }
}
