extension EnrichmentRetry {
    /// When a job none of whose links gave a card because a bot check stood in for a page
    /// (`FetchError.Kind.challenge`) is tried again: a few times, later and later, within an hour by
    /// default. Walls of the other kinds (login, consent, error pages, parked domains, app shells) are not
    /// tried again: they do not go away.
    ///
    /// The retries are spread over ``window`` from the first attempt, each wait twice the one before, and
    /// none sooner than ``minimumDelay`` after the one before: the refusal is cached that long, so a retry
    /// sooner would only read it again (3 retries in an hour: 10, about 26 and 60 minutes after the first
    /// attempt). The strategy's horizon bounds them too.
    public struct Challenge: Sendable, Hashable {
        /// Retries at most (`DESKKIT_CHALLENGE_RETRIES`). Default 3; 0: none.
        public var retries = 3
        /// The time the retries are spread over, from the first attempt (`DESKKIT_CHALLENGE_RETRY_WINDOW`).
        /// Default 1 hour.
        public var window: Duration = .seconds(3600)
        /// The shortest wait between two attempts: the refusal's time in the preview cache
        /// (`PreviewService.Configuration.refusalTTL`, which `DESKKIT_REFUSAL_TTL` sets both to). Default
        /// 10 minutes.
        public var minimumDelay: Duration = .seconds(600)

        /// The default schedule (see each property).
        public init() {}

        /// The wait before the next attempt after `attempts` attempts (1 after the first), or nil when the
        /// retries are spent.
        package func delay(after attempts: Int) -> Duration? {
            guard attempts >= 1, attempts <= retries else { return nil }
            // Attempt k + 1 runs at window × (2^k − 1) / (2^n − 1) from the first, and k minimum delays at least.
            func offset(_ k: Int) -> Duration {
                let share = Double((1 << k) - 1) / Double((1 << retries) - 1)
                return Swift.max(window * share, minimumDelay * k)
            }
            return offset(attempts) - offset(attempts - 1)
        }
    }
}
