import ArgumentParser
import DeskKitModel
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a run of lines answered: the bytes for standard output and standard error, in input order, and how
/// many lines failed.
struct LinesAnswer {
    var out = JSONWriter(capacity: 0)
    var err = JSONWriter(capacity: 0)
    var failures = 0

    /// Writes one line of JSON that `body` writes, to the standard-output part.
    mutating func line(_ body: (inout JSONWriter) -> Void) {
        body(&out)
        out.append(0x0A)
    }

    mutating func line(_ value: JSONValue) { line { $0.write(value) } }

    /// Answers a line that failed with its error, `{"error": {"code", "message", "line"}}`, and counts it.
    mutating func fail(_ error: LineError) {
        failures += 1
        line(error.jsonValue)
    }

    /// Empties the answer, keeping its memory.
    mutating func clear() {
        out.removeAll(keepingCapacity: true)
        err.removeAll(keepingCapacity: true)
        failures = 0
    }

    /// Writes one line of text to the standard-error part.
    mutating func errorLine(_ s: String) {
        err.append(contentsOf: s.utf8)
        err.append(0x0A)
    }
}

/// Runs a command's per-line work on every core: lines are gathered in batches (at most ``maxLines`` lines
/// or about ``maxBytes`` bytes), each batch is cut into runs of consecutive lines that the cores take in
/// turn, each run with state of its own (a decoder, say), and the answers are written in input order — the
/// output is byte for byte what one thread gives. Memory stays bounded by a batch and its answers.
struct LineBatches {
    /// The most lines in a batch.
    var maxLines: Int
    /// A batch is run once its lines hold this many bytes.
    var maxBytes: Int = 1 << 20
    /// How many threads work on a batch (default: the processors online).
    var threads = LineBatches.processors
    /// Runs a thread takes of a batch: a few, so that an uneven batch still keeps every core busy. Lines
    /// that each cost much (a page to parse) are best one to a run: ``maxLines``.
    var runsPerThread = 8

    /// The processors online, at least 1.
    static let processors = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    /// Reads every non-blank line of `reader`, hands each to `work` (with the state `makeState` gives to
    /// the run it falls in) and each line over the limit to `overlong`, on every core, and then gives
    /// every batch's answer, in order, to `emit`. `makeState`, `work` and `overlong` run on several
    /// threads at once.
    func run<State>(
        _ reader: inout LineReader,
        makeState: @escaping @Sendable () -> State,
        work: @escaping @Sendable (inout State, UnsafeBufferPointer<UInt8>, Int, inout LinesAnswer) -> Void,
        overlong: @escaping @Sendable (LineError, inout LinesAnswer) -> Void,
        emit: (LinesAnswer) -> Void
    ) throws {
        let threads = threads
        let limit = reader.maxLineBytes
        // One answer a run, kept from batch to batch so that its buffers are reused.
        var answers = [LinesAnswer](
            repeating: LinesAnswer(), count: threads <= 1 ? 1 : min(maxLines, threads * runsPerThread))
        try reader.forEachBatch(maxLines: maxLines, maxBytes: maxBytes) { bytes, spans in
            // Runs of consecutive lines; one thread works the batch alone.
            let runs = min(spans.count, answers.count)
            spans.withUnsafeBufferPointer { spans in
                answers.withUnsafeMutableBufferPointer { answers in
                    // Every run reads the batch and writes its own answer; concurrentPerform returns when
                    // all have ended, before the buffers do.
                    let batch = Batch(bytes: bytes, spans: spans, answers: answers)
                    let doRun: @Sendable (Int) -> Void = { r in
                        var state = makeState()
                        var answer = LinesAnswer()
                        swap(&answer, &batch.answers[r])
                        answer.clear()
                        let spans = batch.spans
                        for span in spans[(spans.count * r / runs)..<(spans.count * (r + 1) / runs)] {
                            if span.tooLong {
                                overlong(.tooLong(line: span.number, limit: limit), &answer)
                            } else {
                                let line = UnsafeBufferPointer(
                                    rebasing: batch.bytes[span.start..<(span.start + span.count)])
                                work(&state, line, span.number, &answer)
                            }
                        }
                        swap(&answer, &batch.answers[r])
                    }
                    if runs == 1 { doRun(0) } else { DispatchQueue.concurrentPerform(iterations: runs, execute: doRun) }
                }
            }
            for r in 0..<runs { emit(answers[r]) }
        }
    }

    /// A batch as the threads see it: the lines, read by all, and one answer slot a run.
    private struct Batch: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let spans: UnsafeBufferPointer<LineReader.LineSpan>
        let answers: UnsafeMutableBufferPointer<LinesAnswer>
    }
}

extension LineBatches {
    /// Answers every non-blank line of `path` (standard input for nil or "-") with ``run(_:makeState:work:overlong:emit:)``,
    /// writes the answers to standard output and standard error, and returns how many lines failed.
    static func answer<State>(
        _ path: String?, _ lineOptions: LineOptions, _ threadOptions: ThreadOptions, maxLines: Int,
        runsPerThread: Int = 8,
        makeState: @escaping @Sendable () -> State,
        work: @escaping @Sendable (inout State, UnsafeBufferPointer<UInt8>, Int, inout LinesAnswer) -> Void,
        overlong: @escaping @Sendable (LineError, inout LinesAnswer) -> Void
    ) throws -> Int {
        var reader = try LineReader(path: path, options: lineOptions)
        var out = Output.stdout()
        var err = Output.stderr()
        defer {
            out.flush()
            err.flush()
        }
        var failures = 0
        let batches = LineBatches(
            maxLines: maxLines, threads: threadOptions.threads ?? processors, runsPerThread: runsPerThread)
        try batches.run(&reader, makeState: makeState, work: work, overlong: overlong) { answer in
            failures += answer.failures
            answer.out.withUnsafeBufferPointer { out.write($0) }
            answer.err.withUnsafeBufferPointer { err.write($0) }
        }
        return failures
    }
}

/// `--threads`, for the commands that answer each line on its own.
struct ThreadOptions: ParsableArguments {
    @Option(
        name: .long,
        help:
            "How many threads answer lines (default: one per processor online). The output is the same for any number."
    )
    var threads: Int?

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }
}
