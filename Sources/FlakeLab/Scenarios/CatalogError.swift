/// Why a ``ScenarioCatalog`` cannot be built: a name given twice, or a claim under an executor
/// the catalog does not have.
public struct CatalogError: Error, Equatable, CustomStringConvertible {
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
