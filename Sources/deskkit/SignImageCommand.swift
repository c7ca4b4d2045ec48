import ArgumentParser
import DeskKitServer
import Foundation

/// `deskkit sign-image URL`: the image proxy's URL of an image, for renderers that build cards elsewhere.
struct SignImageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-image",
        abstract: "Print the image proxy's URL of an image: {public_url}/images/{signature}/{url}.",
        discussion: """
            Signed as deskkit serve signs its cards' images, with the same settings: --image-proxy-keys (or \
            DESKKIT_IMAGE_PROXY_KEYS, better, as other users cannot read it in the process list; the first key \
            signs) and --public-url (or DESKKIT_PUBLIC_URL). A URL that is not http(s) is refused (exit 65).
            """)

    @Argument(help: "The image's URL (http or https).")
    var url: String

    @Option(help: .setting("image_proxy_keys")) var imageProxyKeys: String?
    @Option(help: .setting("public_url")) var publicUrl: String?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard
            let keys = imageProxyKeys ?? ServerConfiguration.environmentValue(of: "image_proxy_keys", in: environment)
        else {
            throw Failure(
                description: "no keys: give --image-proxy-keys or DESKKIT_IMAGE_PROXY_KEYS", exitStatus: .usage)
        }
        guard let base = publicUrl ?? ServerConfiguration.environmentValue(of: "public_url", in: environment) else {
            throw Failure(description: "no public URL: give --public-url or DESKKIT_PUBLIC_URL", exitStatus: .usage)
        }
        let signer: ImageURLSigner
        do { signer = try ImageURLSigner(keys: keys, publicURL: base) } catch {
            throw Failure(description: "\(error)", exitStatus: .usage)
        }
        let proxied = signer.proxiedURL(for: url)
        guard proxied != url else {
            throw Failure(
                description:
                    "\"\(url.prefix(80))\" is not an http(s) URL of at most \(ImageURLSigner.maxURLBytes) bytes",
                exitStatus: .dataError)
        }
        print(proxied)
    }
}
