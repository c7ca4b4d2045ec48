import DeskKitJobStore

extension PostgresJobStore.Options {
    /// The options of a test's store when the test's subject is not a deadline: a minute for an operation and
    /// for a connection instead of the server's 5 s. Some twenty tests open stores on the shared cluster at once
    /// when the suite starts, and on a loaded 2-core machine (the suite beside `stress-ng --cpu 2`) opening one
    /// took more than 5 s: a server's deadline passed, not what those tests check. A test of the deadlines
    /// themselves sets its own (a silent database, a database stopped under load).
    public static var unhurried: Self {
        var options = Self()
        options.operationTimeout = .seconds(60)
        options.connectTimeout = .seconds(60)
        return options
    }
}
