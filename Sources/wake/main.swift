import Glibc
import WakeCommandLine
import WakeSystem

// `wake --version` is answered before anything else: it needs nothing of what follows, and
// swift-argument-parser's answer costs the most of all (it reflects over every option, and the
// Swift runtime's first protocol-conformance lookup scans every conformance record in this
// static binary). Written with write(2): `print` would make that lookup too.
if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
    WakeVersion.write()
    exit(0)
}

// Process-wide state (the signal mask, SIGPIPE, the standard descriptors, the sound server's
// environment) is set before anything else, so no thread ever sees it change (ProcessStart).
// The rest of the start-up is the command's, once parsed (`ProcessStart.forCommand`, through
// the world).
ProcessStart.begin()

exit(WakeMain.run(Array(CommandLine.arguments.dropFirst()), world: .standard))
