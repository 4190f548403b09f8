/// Sample-rate conversion for short clips (the spoken message): linear interpolation, done once
/// when an alarm is set, never while it rings. Good enough for speech; no filter, so a clip taken
/// far down in rate may alias a little, which speech survives.
public enum Resample {
    /// `input` (mono, at `source` Hz) at `target` Hz. Rates outside 1 Hz to 1 MHz, or an output
    /// that would not fit in memory, give no samples.
    public static func linear(_ input: [Int16], from source: Int, to target: Int) -> [Int16] {
        guard !input.isEmpty, (1...1_000_000).contains(source), (1...1_000_000).contains(target) else { return [] }
        if source == target { return input }
        // input.count × target / source, computed without overflow: both rates are at most 1e6.
        let (product, overflow) = input.count.multipliedReportingOverflow(by: target)
        guard !overflow else { return [] }
        let count = product / source
        guard count > 0, count <= 1 << 28 else { return [] }
        var output = [Int16](repeating: 0, count: count)
        let step = Double(source) / Double(target)
        let last = input.count - 1
        for i in 0..<count {
            let position = Double(i) * step
            let j = min(Int(position), last)
            let fraction = position - Double(j)
            let a = Double(input[j])
            let b = j < last ? Double(input[j + 1]) : a
            output[i] = Int16(clamping: Int((a + (b - a) * fraction).rounded()))
        }
        return output
    }
}
