import DeskKitModel
import Hummingbird

/// The Pyrus authorization service as a route an integrator mounts on a Hummingbird router.
///
/// ```swift
/// let router = Router()
/// router.addPyrusAuthorization(at: "/pyrus/auth") { request in
///     await sessions.isValid(user: request.userID, key: request.securityKey)
/// }
/// ```
///
/// Pyrus posts `app_id`, `user_id` and `security_key` (JSON or form-encoded); the route answers 400 with
/// the problems as JSON for a malformed request, otherwise 200 or 403 as the verifier decides.
public enum PyrusAuthorization {
    /// Decides whether the user may use the chat.
    public typealias Verifier = @Sendable (PyrusAuthRequest) async -> Bool

    /// The largest request body read. Default 8 KiB (the three fields are at most a few hundred bytes).
    public static let maxBodyBytes = 8 * 1024
}

extension Router {
    /// Mounts the Pyrus authorization service at `path` (POST).
    @discardableResult
    public func addPyrusAuthorization(
        at path: RouterPath = "/pyrus/auth", verify: @escaping PyrusAuthorization.Verifier
    ) -> Self {
        post(path) { request, context -> Response in
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: PyrusAuthorization.maxBodyBytes)
            } catch {
                throw RequestProblem(.contentTooLarge)
            }
            let contentType = request.headers[.contentType]
            let (status, problems) = await PyrusAuthRequest.respond(
                to: body.readableBytesView, contentType: contentType, verify: verify)
            guard status == 400 else { return Response(status: .init(code: status)) }
            throw RequestProblem(.badRequest, problems: problems)
        }
        return self
    }
}
