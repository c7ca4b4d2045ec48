import DeskKitCards
import DeskKitJSON
import DeskKitModel
import DeskKitPreview
import Foundation

extension ConversationPage {
    /// Writes the page to `path`, or to standard output when `path` is `-`.
    func write(to path: String) throws {
        let html = render()
        if path == "-" {
            var out = Output.stdout()
            out.write(html.utf8)
            out.flush()
            return
        }
        do {
            try html.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write \(path): \(error.localizedDescription)", exitStatus: .cannotCreate)
        }
    }
}

extension ConversationPage.Entry {
    /// The message of an envelope's JSON text, its sender the envelope's `user.user_id` and `nickname` when it has
    /// them.
    init(envelope source: String) {
        let user = (try? JSONValue.parse(source))?["user"]
        self.init(
            message: DeskMessage(json: source), senderID: user?["user_id"]?.stringValue,
            senderName: user?["nickname"]?.stringValue)
    }
}

extension ConversationPage.LinkPreview {
    /// The card the preview service found for a link, or why it found none.
    init(_ found: LinkPreview) {
        switch found.result {
        case .success(let preview): self.init(link: found.link.text, preview: preview)
        case .failure(let error): self.init(link: found.link.text, preview: nil, failure: error.detail)
        }
    }
}
