// Runs the enrichment server with the configuration `deskkit serve` reads from the environment.
import DeskKitServer
import Foundation

let configuration = try ServerConfiguration.resolve(environment: ProcessInfo.processInfo.environment)
let server = EnrichmentServer(configuration: configuration)  // jobs in memory; see `store:` for SQLite, PostgreSQL
try await server.makeApplication().runService()  // or mount server.makeRouter() in an app of your own
