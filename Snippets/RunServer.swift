// Runs the enrichment server with the configuration `deskkit serve` reads from the environment.
import DeskKitServer
import Foundation

let configuration = try ServerConfiguration.resolve(environment: ProcessInfo.processInfo.environment)
// The store DESKKIT_STORE names: a SQLite file by default, PostgreSQL, or memory.
let server = EnrichmentServer(configuration: configuration, store: try await configuration.openStore())
try await server.makeApplication().runService()  // or mount server.makeRouter() in an app of your own
