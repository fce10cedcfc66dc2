/// An error in what a person gave the lab, thrown by a domain type: a selector the catalog does
/// not have (``ScenarioCatalog/LookupError``), a shard out of range (``Shard/Invalid``). The
/// command line turns each into a ``UsageError`` in one place, ``UsageError/mapping(_:)``: one
/// line on stderr and exit status 2.
package protocol InputError: Error, CustomStringConvertible {}

extension UsageError {
  /// `body`'s result, or its domain error as the one-line usage error.
  package static func mapping<Value, Failure: InputError>(
    _ body: () throws(Failure) -> Value
  ) throws(UsageError) -> Value {
    do {
      return try body()
    } catch {
      throw UsageError(error.description)
    }
  }
}
