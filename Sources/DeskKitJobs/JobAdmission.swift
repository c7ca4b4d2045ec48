/// What became of a job submitted to the ``JobQueue``.
public struct JobAdmission: Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, CaseIterable { case accepted, duplicate, full, closed, unavailable }
    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// The member named `rawValue`, or nil for a name this version does not know.
    public init?(rawValue: String) {
        guard let code = Code(rawValue: rawValue) else { return nil }
        self.code = code
    }

    /// Its name, short and fixed: what the JSON and the metrics print.
    public var rawValue: String { code.rawValue }
    public var description: String { code.rawValue }

    /// Committed to the store.
    public static let accepted = JobAdmission(.accepted)

    /// The same message id was accepted within the dedup window: not queued again.
    public static let duplicate = JobAdmission(.duplicate)

    /// The store holds as many unfinished jobs as it may (the memory store's capacity): answer 503 so the
    /// sender retries later.
    public static let full = JobAdmission(.full)

    /// The queue is shutting down.
    public static let closed = JobAdmission(.closed)

    /// The store could not commit the job: answer 503 so the sender retries later.
    public static let unavailable = JobAdmission(.unavailable)
}
