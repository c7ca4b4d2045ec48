@testable import DeskKitJSON
import Testing

@Suite("Line splitting")
struct LineSplitterTests {
    /// Splits `input` fed in chunks of `chunk` bytes; returns the lines (or `nil` for one too long), and
    /// the splitter for its work counter.
    func split(_ input: [UInt8], chunk: Int, max: Int = LineSplitter.defaultMaxLineBytes) throws -> (
        [(Int, [UInt8]?)], LineSplitter
    ) {
        var splitter = LineSplitter(maxLineBytes: max)
        var out: [(Int, [UInt8]?)] = []
        func handle(_ event: LineSplitter.Event) {
            switch event {
            case .line(let line, let number): out.append((number, Array(line)))
            case .tooLong(let number): out.append((number, nil))
            }
        }
        try input.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                try splitter.append(UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + chunk)]), handle)
                i += chunk
            }
        }
        try splitter.finish(handle)
        return (out, splitter)
    }

    @Test(arguments: [1, 3, 7, 64, 4096])
    func linesAndNumbersWhateverTheChunks(_ chunk: Int) throws {
        let (lines, _) = try split(Array("a\n\nbc\r\nlast".utf8), chunk: chunk)
        #expect(lines.map(\.0) == [1, 2, 3, 4])
        #expect(lines.map(\.1) == [Array("a".utf8), [], Array("bc\r".utf8), Array("last".utf8)])
        #expect(try split(Array("a\n".utf8), chunk: chunk).0.count == 1)
        #expect(try split([], chunk: chunk).0.isEmpty)
    }

    /// A handler that throws stops the splitting with its error (deskkit's commands stop a run that way).
    @Test func aThrowingHandlerStopsWithItsError() {
        struct Stop: Error, Equatable { var line: Int }
        var splitter = LineSplitter()
        var seen: [Int] = []
        #expect(throws: Stop(line: 2)) {
            try Array("a\nb\nc\n".utf8).withUnsafeBufferPointer { all in
                try splitter.append(all) { event in
                    guard case .line(_, let number) = event else { return }
                    seen.append(number)
                    if number == 2 { throw Stop(line: number) }
                }
            }
        }
        #expect(seen == [1, 2])
    }

    /// The work is linear whatever the line length: a 20 MB line given in 64 KiB chunks has each byte
    /// looked at once (the search for its end used to start again from the line's start at every chunk).
    @Test func oneLongLineCostsItsLength() throws {
        let size = 20 << 20
        var input = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        input.append(0x0A)
        input += Array("short\n".utf8)
        let (lines, splitter) = try split(input, chunk: 64 << 10)
        #expect(lines.count == 2)
        #expect(lines[0].1?.count == size)
        #expect(splitter.bytesExamined <= input.count)
    }

    @Test func manyShortLinesCostTheirLength() throws {
        let input = Array(String(repeating: "{\"a\":1}\n", count: 100_000).utf8)
        let (lines, splitter) = try split(input, chunk: 1 << 16)
        #expect(lines.count == 100_000)
        #expect(splitter.bytesExamined <= input.count)
    }

    @Test(arguments: [1, 5, 16, 1000])
    func aLineOverTheLimitIsReportedAndSkipped(_ chunk: Int) throws {
        let input = Array("ok\n\(String(repeating: "y", count: 50))\nafter\n\(String(repeating: "z", count: 11))".utf8)
        let (lines, _) = try split(input, chunk: chunk, max: 10)
        #expect(lines.map(\.0) == [1, 2, 3, 4])
        #expect(lines.map(\.1) == [Array("ok".utf8), nil, Array("after".utf8), nil])
    }

    @Test func memoryStaysBoundedByTheLimit() throws {
        // 8 MB without a line end, limit 64 KiB: the splitter drops the line as soon as it is over.
        var splitter = LineSplitter(maxLineBytes: 64 << 10)
        var reported = 0
        let chunk = [UInt8](repeating: UInt8(ascii: "q"), count: 32 << 10)
        for _ in 0..<256 {
            try chunk.withUnsafeBufferPointer { try splitter.append($0) { if case .tooLong = $0 { reported += 1 } } }
            #expect(splitter.bufferedBytes <= (64 << 10) + chunk.count)
        }
        try splitter.finish { _ in Issue.record("nothing is left to hand out") }
        #expect(reported == 1)
    }
}
