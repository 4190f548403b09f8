import CLinux

/// The heap glibc keeps after large frees, given back to the kernel.
public enum FreedMemory {
    /// Returns the free pages of the heap's arenas (`malloc_trim(0)`). Spoken clips are a few
    /// hundred KiB each, under glibc's adaptive mmap threshold once one such block was freed, so
    /// they come from the heap, and a dropped clip's pages stay in the process until trimmed.
    /// Takes about a millisecond; only for after a large release, never on a ring's path.
    public static func giveBack() { _ = malloc_trim(0) }
}
