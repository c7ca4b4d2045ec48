/// The shortest of `runs` timings of `body`, in seconds: the figure every benchmark here prints (the
/// others are the machine's noise).
func bestSeconds(of runs: Int, _ body: () -> Void) -> Double {
    var best = Duration.seconds(1000)
    for _ in 0..<runs {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        best = min(best, clock.now - start)
    }
    return Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
}
