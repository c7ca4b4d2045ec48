@_exported import MetricsTestKit

extension TestMetrics {
    /// What the counter `label` (with `dimensions`) has counted: 0 when it was never made.
    public func total(_ label: String, _ dimensions: [(String, String)] = []) -> Int64 {
        (try? expectCounter(label, dimensions).totalValue) ?? 0
    }
}
