/// The order a folder's or a list's entries are tried in at one ring: shuffled, none played
/// again until every one has played (a round), remembered across rings as the list of those
/// played in this round (the history's `played`).
public enum ShuffleBag {
    /// The most paths `played` keeps.
    public static let playedKept = SoundList.maxEntries

    /// The order for the next ring: those not yet played this round, shuffled, then those played,
    /// shuffled (the fallbacks when the first fail). Entries no longer there drop out of
    /// `played`; new ones join the round. When all have played, a new round starts with every
    /// entry, and with two or more the last one played (`played.last`) does not come first.
    public static func order(entries: [String], played: [String], using rng: inout some RandomNumberGenerator) -> [String] {
        let unique = dedup(entries)
        let done = Set(played).intersection(unique)
        var fresh = unique.filter { !done.contains($0) }
        var again = unique.filter { done.contains($0) }
        if fresh.isEmpty {
            // A new round: every entry, but not the last one played first.
            fresh = unique
            again = []
            fresh.shuffle(using: &rng)
            if fresh.count > 1, let last = played.last, fresh.first == last {
                let other = Int.random(in: 1..<fresh.count, using: &rng)
                fresh.swapAt(0, other)
            }
            return fresh
        }
        fresh.shuffle(using: &rng)
        again.shuffle(using: &rng)
        return fresh + again
    }

    /// `played` after a ring that tried `tried` (in order): a round that was complete starts
    /// afresh (unless `tried` is only the last one played: the same ring said twice), entries no longer there drop out, and at most `playedKept` are kept (the newest).
    public static func record(tried: [String], played: [String], entries: [String]) -> [String] {
        let all = Set(entries)
        var kept = dedup(played.filter { all.contains($0) })
        if !all.isEmpty, Set(kept) == all {
            // Told again of the last one played (the same ring's choice, said twice): no change.
            // Anything else starts the new round: it never begins with the last one played.
            if tried.allSatisfy({ $0 == kept.last || !all.contains($0) }) { return Array(kept.suffix(playedKept)) }
            kept = []
        }
        for path in tried where all.contains(path) && !kept.contains(path) { kept.append(path) }
        return Array(kept.suffix(playedKept))
    }

    private static func dedup(_ paths: [String]) -> [String] {
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}
