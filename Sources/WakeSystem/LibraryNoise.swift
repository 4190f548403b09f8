/// Keeps other libraries' diagnostics out of wake's own lines on stderr.
///
/// What prints there, measured or read in their sources:
/// - alsa-lib: "ALSA lib pcm.c:...: Unknown PCM foo" through its error handler, which is
///   replaced by one that says nothing as the library loads (CALSA's shim.h; wake reports every
///   failure itself).
/// - libmpg123, inside libsndfile, for a damaged MP3: "[src/libmpg123/layer3.c:...] error:
///   dequantization failed!", "Note: Illegal Audio-MPEG-Header ... Trying to resync...";
///   libsndfile gives no way to set its MPG123_QUIET flag.
/// - libpulse, inside ALSA's pulse plugin ("Failed to create secure directory ...").
/// - libjack, inside ALSA's jack plugin ("Cannot connect to server socket err = ...", "jack
///   server is not running or cannot be started").
/// The last three print with `fprintf(stderr, ...)`. wake itself writes to descriptor 2 with
/// write(2), never through stdio, so stdio's `stderr` stream is pointed at syslog (the journal):
/// their lines are kept there, not lost, and never land in the middle of wake's. A Swift runtime
/// crash report, which also goes through stdio, would go there too; wake must not trap anyway.
/// Output written straight to descriptor 2 by a library is not caught (none of these does).
///
/// Also sets `JACK_NO_START_SERVER=1` (unless already set): without it a jack PCM tries to start
/// a JACK server, which prints a screenful and takes seconds, at 07:00.
/// `ProcessStart.silenceLibraries` applies both, once, after argument parsing and before any
/// thread starts.
public enum LibraryNoise {
    static let assignments = [ProcessStart.Assignment("JACK_NO_START_SERVER", "1", overwrite: false)]
}
