import Foundation

/// What Swift Testing's listing says of a test beyond its ID: the `test` records its event stream
/// writes with `--list-tests` carry the ID as Swift Testing matches `--filter` against it (the
/// source location appended: `Module.Suite/test()/File.swift:12:4`) and where it is declared.
struct ListingRecord: Equatable {
  /// The ID `swift test --filter` is matched against.
  let filterID: String
  let location: SourceLocation?

  /// The records of the listed `tests`, by the ID the listing printed.
  static func parse(_ records: some Collection<UInt8>, tests: [String]) -> [String: ListingRecord] {
    var parsed: [String: ListingRecord] = [:]
    let wanted = Set(tests)
    // As an array: a `Data`'s slices cost an index check per byte read.
    for line in Array(records).split(separator: UInt8(ascii: "\n")) {
      guard let record = JSONParser.parse(line), record["kind"]?.string == "test",
        let id = record["payload"]?["id"]?.string
      else { continue }
      var listed = Substring(id)
      while !wanted.contains(String(listed)), let slash = listed.lastIndex(of: "/") { listed = listed[..<slash] }
      guard wanted.contains(String(listed)) else { continue }
      let source = record["payload"]?["sourceLocation"]
      let location = (source?["filePath"]?.string ?? source?["_filePath"]?.string).flatMap { path in
        source?["line"]?.int.map { SourceLocation(path: path, line: $0) }
      }
      parsed[String(listed)] = ListingRecord(filterID: id, location: location)
    }
    return parsed
  }
}
