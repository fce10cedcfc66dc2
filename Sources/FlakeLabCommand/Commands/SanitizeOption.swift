import FlakeLab

/// `--sanitize WHICH`, which `test` and `ci` read: declared once, each command with its default
/// (`test` names the racing lines of its failures by default; `ci` keeps a daily job as fast as
/// its binaries unless asked).
enum SanitizeOption {
  static func option(default value: Sanitizing) -> Option<Sanitizing> {
    Option<Sanitizing>(
      "sanitize", "WHICH",
      "failures: run each test that failed under global again under the thread sanitizer, for its racing lines; "
        + "thread: also every test in sanitized suite passes, for races that have not failed yet (a nightly job); "
        + "none: no sanitized build",
      default: value
    ) { text, option throws(UsageError) in
      Sanitizing(rawValue: try ValueParsers.choice(text, option: option, among: Sanitizing.allCases.map(\.rawValue)))!
    }
  }
}
