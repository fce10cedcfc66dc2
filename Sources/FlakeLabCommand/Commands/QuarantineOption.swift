package import FlakeLab

/// `--quarantine FILE`, which `ci`, `quarantine` and `history` read: declared once.
package enum QuarantineOption {
  package static let option = Option<String>.text(
    "quarantine", "FILE",
    "The tests whose failures do not fail the job (default: .flakelab/quarantine.json in the package, when it exists)")

  /// The quarantine `--quarantine` names, which must exist, or the package's own when it does.
  package static func load(_ named: String?, packagePath: String) throws(UsageError) -> Quarantine {
    try UsageError.mapping { () throws(QuarantineError) in
      try Quarantine.load(
        named ?? Quarantine.defaultPath(in: packagePath), origin: named != nil ? .named : .found,
        mustExist: named != nil)
    }
  }
}
