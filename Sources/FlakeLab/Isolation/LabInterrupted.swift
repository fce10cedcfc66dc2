/// Ctrl-C or SIGTERM reached the lab before anything was measured: while it built the
/// package, listed its tests, or probed the harness. Whatever the stage had started was killed
/// and reaped before this was thrown; the command exits 130 with one line naming the stage.
package struct LabInterrupted: Error, Equatable, Sendable {
  package enum Stage: String, Sendable {
    case build = "building the package"
    case listing = "listing the tests"
    case probe = "probing the harness"
  }

  package let stage: Stage

  package init(stage: Stage) {
    self.stage = stage
  }
}
