extension Duration {
    /// The duration in whole nanoseconds, as SwiftNIO's `TimeAmount` and AsyncHTTPClient's timeouts take it.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
