/// The version of DeskKit: the one place it is written (`deskkit --version`, the fetcher's User-Agent,
/// `CHANGELOG.md`'s newest entry).
public enum DeskKitVersion {
    /// Semantic version of this release.
    public static let current = "0.1.0"
}
