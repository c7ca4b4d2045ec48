import DeskKitModel
import DeskKitServer
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Pyrus authorization route")
struct PyrusAuthorizationRouteTests {
    func app() -> some ApplicationProtocol {
        let router = Router()
        router.addPyrusAuthorization(at: "/pyrus/auth") { request in
            request.appID == "app-1" && request.userID == "user 42" && request.securityKey == "k+1"
        }
        return Application(router: router)
    }

    @Test func answers200403And400InProcess() async throws {
        try await app().test(.router) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            try await client.execute(
                uri: "/pyrus/auth", method: .post, headers: form,
                body: ByteBuffer(string: "app_id=app-1&user_id=user+42&security_key=k%2B1")
            ) { #expect($0.status == .ok) }
            try await client.execute(
                uri: "/pyrus/auth", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"app_id":"app-1","user_id":"user 42","security_key":"nope"}"#)
            ) { #expect($0.status == .forbidden) }
            try await client.execute(
                uri: "/pyrus/auth", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string: #"{"app_id":"app-1","user_id":"\#(String(repeating: "u", count: 101))","security_key":"k"}"#
                )
            ) { response in
                #expect(response.status == .badRequest)
                let json = try JSONValue.parse(String(buffer: response.body))
                #expect(json["problems"]?.arrayValue?.first?["path"] == "$.user_id")
            }
            try await client.execute(
                uri: "/pyrus/auth", method: .post, headers: form, body: ByteBuffer(string: "user_id=u")
            ) { #expect($0.status == .badRequest) }
            try await client.execute(
                uri: "/pyrus/auth", method: .post, headers: form,
                body: ByteBuffer(string: "app_id=a&user_id=u&security_key=" + String(repeating: "k", count: 20_000))
            ) { #expect($0.status == .contentTooLarge) }
        }
    }
}
