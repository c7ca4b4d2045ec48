import DeskKitPreview
import DequeModule
import NIOCore
import ServiceLifecycle
import Synchronization

/// The proxy's fetches of images under way. Requests for one image (with the same conditional headers) that
/// arrive before its fetch has passed on its first byte share that fetch: one request to the origin, its bytes
/// given to each of them. A fetch waits for a place among its host's (``HostLimiters``), and a request that
/// arrives while it waits joins it too.
///
/// Memory does not grow with an image's size: a fetch goes on only while every one of its requests has less
/// than ``highWater`` bytes not yet sent; the slowest sets the pace.
///
/// Every fetch is a child task of ``run()``, a service of the server's application: at a graceful shutdown no
/// new fetch starts (a request for one is answered as cancelled) and those under way end with their requests
/// (the last request to leave a fetch cancels it); when the service group cancels the service, they are
/// cancelled. A fetch waits for its host's place until its deadline at most (``ImageLimits/timeout`` from
/// the request, the wait and the fetch together).
final class ImageDownloads: Service {
    /// Bytes a request may have waiting to be sent before its fetch waits for it: 256 KiB.
    static let highWater = 256 * 1024

    private let fetcher: PageFetcher
    private let limits: ImageLimits
    private let hosts: HostLimiters
    private let running = Mutex<[ImageRequest: ImageDownload]>([:])
    /// The fetches to start, as child tasks of ``run()``.
    private let starts = AsyncStream<@Sendable () async -> Void>.makeStream()

    /// Downloads of images with `fetcher`, within `limits`, at most `perHost` of them to one host at once.
    init(fetcher: PageFetcher, limits: ImageLimits, perHost: Int) {
        self.fetcher = fetcher
        self.limits = limits
        hosts = HostLimiters(limit: perHost, clock: fetcher.clock)
    }

    /// Runs each fetch as a child task until a graceful shutdown (then the fetches under way end with their
    /// requests) or cancellation (then they are cancelled).
    func run() async {
        await withDiscardingTaskGroup { group in
            await withGracefulShutdownHandler {
                for await fetch in starts.stream { group.addTask { await fetch() } }
            } onGracefulShutdown: {
                self.starts.continuation.finish()
            }
        }
    }

    /// Fetches under way (for tests, and ``HeapTrim``'s quiet moments).
    var count: Int { running.withLock { $0.count } }

    /// A place in the download of `request`'s image: the one under way when it has sent nothing yet, or a new one.
    func subscribe(_ request: ImageRequest) -> ImageDownload.Subscription {
        let (download, subscription, isNew) = running.withLock { running in
            if let download = running[request], let subscription = download.join() {
                return (download, subscription, false)
            }
            let download = ImageDownload()
            running[request] = download
            return (download, download.join()!, true)
        }
        if isNew { start(download, for: request) }
        return subscription
    }

    private func start(_ download: ImageDownload, for request: ImageRequest) {
        let (fetcher, hosts, limits) = (self.fetcher, self.hosts, self.limits)
        let deadline = fetcher.clock.elapsed() + limits.timeout
        let fetch: @Sendable () async -> Void = {
            let host = (try? WebURL(request.url))?.host ?? request.url
            do {
                try await hosts.withPlace(for: host, before: deadline) {
                    // What is left of the request's time, after the wait for a place.
                    try await fetcher.fetchImage(
                        request, limits: limits, deadline: deadline,
                        head: { head in download.publish(.success(head)) },
                        chunk: { buffer in
                            // Once bytes go out, no one else may join: they would miss them.
                            self.stopSharing(download, of: request)
                            try await download.send(buffer)
                        })
                }
                download.finish(nil)
            } catch {
                let error = PageFetcher.map(error)
                download.publish(.failure(error))
                download.finish(error)
            }
            self.stopSharing(download, of: request)
        }
        // The fetch runs until it ends or its last request leaves.
        let started = starts.continuation.yield {
            await withTaskGroup(of: Void.self) { race in
                race.addTask { await fetch() }
                race.addTask { await download.untilAbandoned() }
                await race.next()
                race.cancelAll()
            }
        }
        if case .terminated = started {
            let error = FetchError(.cancelled, "the server is shutting down")
            download.publish(.failure(error))
            download.finish(error)
            stopSharing(download, of: request)
        }
    }

    private func stopSharing(_ download: ImageDownload, of request: ImageRequest) {
        running.withLock { running in
            if running[request] === download { running[request] = nil }
        }
    }
}

/// One fetch of an image, given to every request that joined it.
final class ImageDownload: Sendable {
    private struct Subscriber {
        var chunks: Deque<ByteBuffer> = []
        var bytes = 0
        var waiting: CheckedContinuation<ByteBuffer?, any Error>?
    }

    private struct State {
        var head: Result<ImageHead, FetchError>?
        var headWaiters: [CheckedContinuation<Result<ImageHead, FetchError>, Never>] = []
        /// Whether a byte has gone out: no one joins after.
        var sending = false
        var subscribers: [Int: Subscriber] = [:]
        var nextID = 0
        /// The body's end: nil while it flows, then `.success(())` or the error it ended with.
        var end: Result<Void, FetchError>?
        /// The fetch, waiting for its slowest request.
        var producer: CheckedContinuation<Void, Never>?
        /// Whether every request has left before the end: the fetch is cancelled.
        var abandoned = false
        /// ``untilAbandoned()``'s wait.
        var abandonWaiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// A request's place: its head, then its bytes. Leaving (the request gone) lets the fetch go on without it;
    /// the last one leaving cancels it.
    struct Subscription: Sendable {
        let download: ImageDownload
        let id: Int

        /// What the origin answered, once the first bytes have shown the image's type (or why it is refused).
        func head() async -> Result<ImageHead, FetchError> {
            await withTaskCancellationHandler {
                await download.head()
            } onCancel: {
                download.leave(id)
            }
        }

        /// The next piece of the body; nil at its end.
        /// - Throws: the `FetchError` the body ended with (too many bytes, a broken connection), or
        ///   `CancellationError`.
        func next() async throws -> ByteBuffer? { try await download.next(id) }

        /// The request is done with the download.
        func leave() { download.leave(id) }

        /// Whether the body has ended, whole or with an error, whatever is still to be read (for tests).
        var hasEnded: Bool { download.hasEnded }
    }

    /// A new place, or nil once bytes have gone out.
    func join() -> Subscription? {
        state.withLock { state -> Subscription? in
            guard !state.sending, state.end == nil else { return nil }
            defer { state.nextID += 1 }
            state.subscribers[state.nextID] = Subscriber()
            return Subscription(download: self, id: state.nextID)
        }
    }

    /// Whether the body has ended.
    var hasEnded: Bool { state.withLock { $0.end != nil } }

    /// Returns once every request has left before the body's end (or the calling task is cancelled).
    func untilAbandoned() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state in
                    if state.abandoned || Task.isCancelled { return true }
                    state.abandonWaiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { state in
                defer { state.abandonWaiter = nil }
                return state.abandonWaiter
            }?.resume()
        }
    }

    fileprivate func head() async -> Result<ImageHead, FetchError> {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state in
                if state.head == nil { state.headWaiters.append(continuation) }
                return state.head
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// The origin's answer (the first call counts).
    func publish(_ head: Result<ImageHead, FetchError>) {
        let waiters = state.withLock { state in
            guard state.head == nil else { return [CheckedContinuation<Result<ImageHead, FetchError>, Never>]() }
            state.head = head
            defer { state.headWaiters = [] }
            return state.headWaiters
        }
        for waiter in waiters { waiter.resume(returning: head) }
    }

    /// Gives `buffer` to every request; waits while one of them has ``ImageDownloads/highWater`` bytes or more
    /// not yet sent. Throws `CancellationError` when no request is left.
    func send(_ buffer: ByteBuffer) async throws {
        let handed: [CheckedContinuation<ByteBuffer?, any Error>] = try state.withLock { state in
            state.sending = true
            guard !state.subscribers.isEmpty else { throw CancellationError() }
            var handed: [CheckedContinuation<ByteBuffer?, any Error>] = []
            for id in state.subscribers.keys {
                if let waiting = state.subscribers[id]!.waiting {
                    state.subscribers[id]!.waiting = nil
                    handed.append(waiting)
                } else {
                    state.subscribers[id]!.chunks.append(buffer)
                    state.subscribers[id]!.bytes += buffer.readableBytes
                }
            }
            return handed
        }
        for waiting in handed { waiting.resume(returning: buffer) }
        // The fetch's time limit cancels it while it waits for a request that reads nothing.
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let goOn = state.withLock { state in
                    guard Self.isFull(state), !Task.isCancelled else { return true }
                    state.producer = continuation
                    return false
                }
                if goOn { continuation.resume() }
            }
        } onCancel: {
            let producer = state.withLock { state in
                defer { state.producer = nil }
                return state.producer
            }
            producer?.resume()
        }
        try Task.checkCancellation()
    }

    private static func isFull(_ state: State) -> Bool {
        state.subscribers.values.contains { $0.bytes >= ImageDownloads.highWater }
    }

    /// The body ended: with `error`, or whole.
    func finish(_ error: FetchError?) {
        let waiting = state.withLock { state in
            state.end = error.map { .failure($0) } ?? .success(())
            var waiting: [CheckedContinuation<ByteBuffer?, any Error>] = []
            for id in state.subscribers.keys {
                if let w = state.subscribers[id]!.waiting {
                    waiting.append(w)
                    state.subscribers[id]!.waiting = nil
                }
            }
            return waiting
        }
        for w in waiting {
            if let error { w.resume(throwing: error) } else { w.resume(returning: nil) }
        }
    }

    fileprivate func next(_ id: Int) async throws -> ByteBuffer? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (answer, producer): (Result<ByteBuffer?, any Error>?, CheckedContinuation<Void, Never>?) =
                    state.withLock { state in
                        guard var subscriber = state.subscribers[id] else {
                            return (.failure(CancellationError()), nil)
                        }
                        if Task.isCancelled { return (.failure(CancellationError()), nil) }
                        if let chunk = subscriber.chunks.popFirst() {
                            subscriber.bytes -= chunk.readableBytes
                            state.subscribers[id] = subscriber
                            return (.success(chunk), Self.release(&state))
                        }
                        switch state.end {
                        case .success?: return (.success(nil), nil)
                        case .failure(let error)?: return (.failure(error), nil)
                        case nil:
                            subscriber.waiting = continuation
                            state.subscribers[id] = subscriber
                            return (nil, Self.release(&state))
                        }
                    }
                producer?.resume()
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            leave(id)
        }
    }

    /// The fetch's continuation, when it waits and no request is full any more.
    private static func release(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        guard let producer = state.producer, !isFull(state) else { return nil }
        state.producer = nil
        return producer
    }

    fileprivate func leave(_ id: Int) {
        let (waiting, producer, abandoned) = state.withLock { state in
            let waiting = state.subscribers.removeValue(forKey: id)?.waiting
            var abandoned: CheckedContinuation<Void, Never>?
            if state.subscribers.isEmpty && state.end == nil {
                state.abandoned = true
                abandoned = state.abandonWaiter
                state.abandonWaiter = nil
            }
            // The fetch goes on for the others, or ends (its next `send` throws) when none is left.
            var producer = Self.release(&state)
            if state.subscribers.isEmpty, producer == nil {
                producer = state.producer
                state.producer = nil
            }
            return (waiting, producer, abandoned)
        }
        waiting?.resume(throwing: CancellationError())
        producer?.resume()
        abandoned?.resume()
    }
}
