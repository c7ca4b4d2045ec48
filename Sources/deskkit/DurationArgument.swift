import ArgumentParser
import DeskKitServer

extension Duration {
    /// A duration option's value (`500ms`, `90s`, `30m`, `12h`, `7d`; a bare number is seconds), read by
    /// `DurationText` as `deskkit serve`'s settings are.
    static func argument(_ text: String) throws -> Duration {
        guard let duration = DurationText.parse(text) else {
            throw ValidationError("\"\(text.prefix(20))\" is not a duration like \(DurationText.examples)")
        }
        return duration
    }
}
