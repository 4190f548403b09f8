import Glibc

/// The interpreter that runs what Debian packages installed for Python (python3-holidays).
public enum DebianPython {
    /// `/usr/bin/python3` by its path, not the first `python3` on PATH: a pyenv, a virtualenv or
    /// /usr/local's Python comes first on many PATHs (here /root/.pyenv's) and lacks apt's modules.
    /// Debug builds let a test name another (`WAKE_TEST_PYTHON`: one without the module, or none).
    public static var path: String {
        #if DEBUG
        if let p = getenv("WAKE_TEST_PYTHON") { return String(cString: p) }
        #endif
        return "/usr/bin/python3"
    }
}
