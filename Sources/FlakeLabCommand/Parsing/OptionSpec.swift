/// One option a command accepts: how it is spelled, whether it takes a value, and its help line.
/// Commands declare their options once; parsing and `--help` both read the declaration.
struct OptionSpec: Sendable {
  let name: String
  /// The placeholder shown in help (`N`, `R`, `FILE`), or nil for a flag that takes no value.
  let valueName: String?
  let help: String
  /// Whether the option may be given more than once (`--filter A --filter B`); any other
  /// option given twice is an error, never a silent choice of one value.
  var isRepeatable = false

  static func value(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help)
  }

  static func repeatable(_ name: String, _ valueName: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: true)
  }

  static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help)
  }

  /// `--iterations N`, as shown in help and usage lines (`--filter REGEX...` when repeatable).
  var synopsis: String {
    (valueName.map { "--\(name) \($0)" } ?? "--\(name)") + (isRepeatable ? "..." : "")
  }
}
