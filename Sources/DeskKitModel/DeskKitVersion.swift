/// The version of DeskKit: the one place it is written (`deskkit --version`, the fetcher's User-Agent), that of
/// `CHANGELOG.md`'s newest released entry and of the git tag; set when a version is released (CONTRIBUTING.md).
public enum DeskKitVersion {
    /// Semantic version of this release.
    public static let current = "0.1.0"
}
