import CSQLite
import Foundation

/// A prepared SQL statement whose values are bound, never spliced into its text: a test's name
/// with a quote in it is stored as it is.
package final class Statement {
  package enum Value {
    case text(String?)
    case integer(Int?)
  }

  /// The current row of a query, read by column name: a column added to a query, or moved in
  /// it, can never be read as another.
  package struct Row {
    fileprivate let statement: Statement

    /// The text in `name`'s column, nil for NULL.
    package func text(_ name: String) throws(HistoryError) -> String? {
      let column = try statement.column(name)
      // By its length, not up to a NUL: a name with one in it is read back whole.
      return sqlite3_column_text(statement.handle, column).map {
        String(
          decoding: UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement.handle, column))),
          as: UTF8.self)
      }
    }

    /// The integer in `name`'s column, nil for NULL.
    package func integer(_ name: String) throws(HistoryError) -> Int? {
      let column = try statement.column(name)
      guard sqlite3_column_type(statement.handle, column) != SQLITE_NULL else { return nil }
      return Int(sqlite3_column_int64(statement.handle, column))
    }
  }

  fileprivate let handle: OpaquePointer
  private let store: HistoryStore
  /// Each result column's index, by its name (`AS` names it where an expression would not).
  private let columns: [String: Int32]

  init(_ handle: OpaquePointer, of store: HistoryStore) {
    self.handle = handle
    self.store = store
    var columns: [String: Int32] = [:]
    for index in 0..<sqlite3_column_count(handle) {
      if let name = sqlite3_column_name(handle, index) {
        columns[String(cString: name)] = columns[String(cString: name)] ?? index
      }
    }
    self.columns = columns
  }

  fileprivate func column(_ name: String) throws(HistoryError) -> Int32 {
    guard let column = columns[name] else {
      throw .sqlite(path: store.path, what: sql, message: "the query has no column named \(name)")
    }
    return column
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Runs it once with `values`, for what it changes.
  package func run(_ values: [Value]) throws(HistoryError) {
    try rows(values) { (_: Row) throws(HistoryError) in }
  }

  /// Runs it with `values`, handing each row to `body`.
  package func rows(_ values: [Value], _ body: (Row) throws(HistoryError) -> Void) throws(HistoryError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    // A value too few would run the statement with NULL in its place; one too many, without it.
    let parameters = Int(sqlite3_bind_parameter_count(handle))
    guard values.count == parameters else {
      throw .sqlite(path: store.path, what: sql, message: "\(values.count) values bound to \(parameters) parameters")
    }
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      let status: Int32 =
        switch value {
        // By its length: cut at a NUL, two tests' names could be stored as one.
        case .text(let text?):
          text.utf8CString.withUnsafeBufferPointer {
            sqlite3_bind_text(handle, position, $0.baseAddress, Int32($0.count - 1), Self.transient)
          }
        case .text(nil): sqlite3_bind_null(handle, position)
        case .integer(let number?): sqlite3_bind_int64(handle, position, Int64(number))
        case .integer(nil): sqlite3_bind_null(handle, position)
        }
      guard status == SQLITE_OK else { throw store.error(status, what: sql) }
    }
    while true {
      let status = sqlite3_step(handle)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw store.error(status, what: sql) }
      try body(Row(statement: self))
    }
  }

  private var sql: String { String(cString: sqlite3_sql(handle)) }

  /// SQLite copies the bound text (the Swift string's buffer lives only for the call).
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension HistoryStore {
  /// `sql` prepared, to run with values bound.
  package func statement(_ sql: String) throws(HistoryError) -> Statement {
    var handle: OpaquePointer?
    let status = sqlite3_prepare_v2(database, sql, -1, &handle, nil)
    guard status == SQLITE_OK, let handle else {
      sqlite3_finalize(handle)
      throw error(status, what: sql)
    }
    return Statement(handle, of: self)
  }
}
