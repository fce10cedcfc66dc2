import Foundation

/// The name this lab is run by: `flakelab`, or the executable of a lab of one's own. Help,
/// messages and the commands a report prints (`… replay …`) use it, so they can be run as shown.
package enum Program {
  /// Bound by ``LabCommandLine/main(catalog:)`` to the name the process was started by; the
  /// tool's own name elsewhere.
  @TaskLocal package static var name = "flakelab"

  /// The last component of the path this process was started by.
  package static var startedAs: String {
    CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? name
  }
}
