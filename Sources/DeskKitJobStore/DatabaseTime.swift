import DeskKitTime
import Foundation
import PostgresNIO
import Synchronization

/// The one clock every instance on a database shares: the database's. An instant of an instance's clock (the `now`,
/// `until` and `dueAt` the queue passes) is written and compared as the database's — the instance's clock
/// (`PostgresJobStore.Options.clock`) plus its difference from the database's (`clock_timestamp()`), in whole
/// seconds, measured when the store opens and, on the system's clock, again each minute (kept unless it moved by two
/// seconds or more: the clock was set; a test's clock keeps the time it was given) — and read back as the
/// instance's. So leases, due times and the recovery of abandoned jobs agree across instances whose clocks differ by
/// minutes, while instants equal on an instance's clock stay equal in the database (a page's cursor, a job's dates).
/// The memory and SQLite stores, one process's, keep the service's clock.
final class DatabaseTime: Sendable {
    let clock: ServiceClock
    /// The database's clock minus the instance's, in whole seconds, and when (on the instance's clock) it was last
    /// measured.
    private let difference = Mutex<(seconds: Double, measuredAt: Duration?)>((0, nil))

    /// How often the difference is measured again: a minute.
    static let remeasure: Duration = .seconds(60)

    init(clock: ServiceClock) { self.clock = clock }

    /// `date`, an instant of the instance's clock, as the database's.
    func database(_ date: Date) -> Date { date.addingTimeInterval(difference.withLock { $0.seconds }) }

    /// `date`, an instant of the database's clock, as the instance's.
    func instance(_ date: Date) -> Date { date.addingTimeInterval(-difference.withLock { $0.seconds }) }

    /// Measures the difference when it never was, or a minute ago: the database's `clock_timestamp()` against the
    /// middle of the instance's time around the query. A failure keeps the last difference (the statement that
    /// follows fails the same way, and is told).
    func measureWhenDue(_ client: PostgresClient) async {
        let elapsed = clock.elapsed()
        guard
            difference.withLock({
                $0.measuredAt.map { clock.isSystem && elapsed - $0 >= Self.remeasure } ?? true
            })
        else { return }
        let before = clock.now()
        guard let rows = try? await client.query("SELECT extract(epoch FROM clock_timestamp())::float8"),
            let seconds = try? await rows.decode(Double.self).first(where: { _ in true })
        else { return }
        let middle = before.addingTimeInterval(clock.now().timeIntervalSince(before) / 2)
        let measured = (seconds - middle.timeIntervalSince1970).rounded()
        difference.withLock { current in
            let moved = current.measuredAt == nil || abs(measured - current.seconds) >= 2
            current = (moved ? measured : current.seconds, elapsed)
        }
    }
}
