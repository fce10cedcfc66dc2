/// What a variant's source claims, or what the lab demonstrates, about its outcome under one
/// executor, in terms that do not depend on the machine.
///
/// `flakelab check` runs each declared claim and judges it (see `Verdict`). "Never" and
/// "always" can be disproved by a single iteration; "can" claims can only be shown, and a race
/// that needs more cores than a machine has may stay unshown there.
public enum Claim: String, Sendable, CaseIterable {
  /// No iteration fails: what a fix promises.
  case neverFails = "never fails"
  /// No iteration passes: a deterministic failure, as a serial executor gives a wrong test.
  case alwaysFails = "always fails"
  /// At least one iteration fails: the race is real here.
  case canFail = "can fail"
  /// At least one iteration passes: the test is not simply broken.
  case canPass = "can pass"
}
