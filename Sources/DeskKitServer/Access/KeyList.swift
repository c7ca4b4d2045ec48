/// A comma-separated list of secret keys, as a setting gives them (`DESKKIT_API_KEYS`,
/// `DESKKIT_IMAGE_PROXY_KEYS`): each entry with white space around it trimmed, and the name a problem calls it by
/// — its position (`the key`, `key 2 of 3`), never its text.
enum KeyList {
    static func entries(_ list: String) -> [(position: String, key: Substring)] {
        let entries = list.split(separator: ",", omittingEmptySubsequences: false)
        return entries.enumerated().map { i, entry in
            (entries.count == 1 ? "the key" : "key \(i + 1) of \(entries.count)", entry.trimmingWhiteSpace)
        }
    }
}
