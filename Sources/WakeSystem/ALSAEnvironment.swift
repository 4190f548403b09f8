import CALSA
import Glibc

/// Checks of the files alsa-lib reads before it reads them: alsa-lib `fopen`s its
/// configuration files with blocking I/O, so a FIFO among them would hang the first ALSA call.
///
/// `ALSA_CONFIG_PATH`, as alsa-lib 1.2 reads it (`snd_config_update_r` in conf.c): a list of
/// files separated by `:` or spaces, `~/` expanded from `HOME`; when it is set, those files
/// replace `/usr/share/alsa/alsa.conf`. Every one must be a readable regular file (alsa-lib would
/// skip a missing one with a message, and then know no devices at all). The per-user and system
/// files that alsa.conf loads (`/etc/asound.conf`, `~/.asoundrc`, `$XDG_CONFIG_HOME/alsa/asoundrc`)
/// may be missing, but one that exists must be a regular file or a directory.
public enum ALSAEnvironment {
    public struct ConfigError: Error, CustomStringConvertible, Equatable {
        /// Where the path came from: `ALSA_CONFIG_PATH` or the file's usual name (`~/.asoundrc`).
        public var source: String
        public var path: String
        public var reason: String
        public var description: String {
            if source == "ALSA_CONFIG_PATH" {
                return "ALSA_CONFIG_PATH names '\(path.printable)', which \(reason); "
                    + "point it at ALSA configuration files (such as /usr/share/alsa/alsa.conf) or unset it"
            }
            return "ALSA's configuration file \(source) ('\(path.printable)') \(reason); ALSA would wait on it for ever; "
                + "make it a regular file or remove it"
        }
    }

    /// Call before any ALSA call (a device check, `--list-devices`).
    public static func check() throws(ConfigError) {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        try check(configPath: env("ALSA_CONFIG_PATH"), home: env("HOME"), xdgConfigHome: env("XDG_CONFIG_HOME"))
    }

    public static func check(configPath: String?, home: String?, xdgConfigHome: String?) throws(ConfigError) {
        func expand(_ p: String) -> String {
            if p.hasPrefix("~/"), let home { return home + "/" + p.dropFirst(2) }
            return p
        }
        if let configPath {
            for piece in configPath.split(whereSeparator: { $0 == ":" || $0 == " " }) {
                let path = expand(String(piece))
                do {
                    let file = try RegularFile.open(path)
                    close(file.fd)
                } catch {
                    throw ConfigError(source: "ALSA_CONFIG_PATH", path: path,
                                      reason: error.reason.hasPrefix("is ") ? error.reason : "cannot be read (\(error.reason))")
                }
            }
        }
        var optional = ["/etc/asound.conf"]
        if home != nil { optional.append("~/.asoundrc") }
        if let x = xdgConfigHome, !x.isEmpty { optional.append(x + "/alsa/asoundrc") } else if home != nil { optional.append("~/.config/alsa/asoundrc") }
        for name in optional {
            let path = expand(name)
            guard let kind = RegularFile.kind(of: path), kind != .regular, kind != .directory else { continue }
            throw ConfigError(source: name, path: path, reason: "is \(kind), not a regular file")
        }
    }

    /// Why ALSA's configuration cannot be loaded, in one phrase, or nil when it loads. Used to
    /// explain calls that fail with a bare code when the configuration is what is broken.
    static func configurationProblem() -> String? {
        do { try check() } catch { return error.description }
        let r = wake_snd_config_update()
        guard r < 0 else { return nil }
        return "ALSA's configuration could not be loaded (\(String(cString: wake_snd_strerror(r)))); check ALSA_CONFIG_PATH and ~/.asoundrc"
    }
}
