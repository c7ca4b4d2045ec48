import DeskKitTestSupport
import Foundation
import Hummingbird
import Testing

/// The helper the test servers run on (DeskKitTestSupport).
@Suite("Test servers")
struct GracefulServerTests {
    /// A server that cannot listen ends its start with why, instead of a wait for a port that never comes.
    @Test func aServerThatCannotListenSaysWhy() async throws {
        let (fd, port) = try LoopbackSocket.open(listening: true)
        defer { close(fd) }
        let error = await #expect(throws: GracefulServer.NeverListened.self) {
            _ = try await GracefulServer.start { listening in
                Application(
                    router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
                    onServerRunning: { listening($0.localAddress?.port ?? 0) }, logger: GracefulServer.quietLogger)
            }
        }
        #expect(
            error?.description.hasPrefix("the test server never listened: ") == true, "\(String(describing: error))")
    }
}
