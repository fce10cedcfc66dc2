/// An option declared once: its spelling and help, its default, and how its text becomes a
/// value. Parsing, `--help` and the default all derive from the declaration, as
/// swift-argument-parser's `@Option` does; a command reads it as `arguments[Options.jobs]`.
package struct Option<Value: Sendable>: Sendable {
  package var spec: OptionSpec
  package let defaultValue: Value
  private let convert: @Sendable (String, String) throws(UsageError) -> Value

  /// An option of `name`, shown as `--name VALUE` with `help`, to which help adds
  /// `(default: shownDefault)` when there is one.
  package init(
    _ name: String, _ valueName: String, _ help: String, default defaultValue: Value,
    shownDefault: String?, repeatable: Bool = false,
    parse: @escaping @Sendable (String, String) throws(UsageError) -> Value
  ) {
    spec = OptionSpec(
      name: name, valueName: valueName, help: help + (shownDefault.map { " (default: \($0))." } ?? "."),
      isRepeatable: repeatable)
    self.defaultValue = defaultValue
    convert = parse
  }

  /// `text`, the value given as `--name text`.
  package func parse(_ text: String) throws(UsageError) -> Value {
    try convert(text, "--\(spec.name)")
  }
}

extension Option {
  /// An option whose default is shown as it prints.
  package init(
    _ name: String, _ valueName: String, _ help: String, default defaultValue: Value,
    parse: @escaping @Sendable (String, String) throws(UsageError) -> Value
  ) {
    self.init(
      name, valueName, help, default: defaultValue, shownDefault: "\(defaultValue)", parse: parse)
  }

  /// An option with no default: absent, it is nil.
  package static func optional<Wrapped>(
    _ name: String, _ valueName: String, _ help: String, shownDefault: String? = nil,
    repeatable: Bool = false,
    parse: @escaping @Sendable (String, String) throws(UsageError) -> Wrapped
  ) -> Option<Wrapped?> {
    Option<Wrapped?>(
      name, valueName, help, default: nil, shownDefault: shownDefault, repeatable: repeatable,
      parse: { text, option throws(UsageError) in try parse(text, option) })
  }

  /// Text taken as it is; absent, nil.
  package static func text(_ name: String, _ valueName: String, _ help: String) -> Option<String?> {
    Option<String?>(name, valueName, help, default: nil, shownDefault: nil) { text, _ in text }
  }
}

/// An option that takes no value: set or not.
package struct Flag: Sendable {
  package let spec: OptionSpec

  package init(_ name: String, _ help: String) {
    spec = OptionSpec(name: name, valueName: nil, help: help)
  }
}
