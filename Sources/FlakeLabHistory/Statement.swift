import CSQLite
import Foundation

/// A prepared SQL statement whose values are bound, never spliced into its text: a test's name
/// with a quote in it is stored as it is.
package final class Statement {
  package enum Value {
    case text(String?)
    case integer(Int)
  }

  /// The current row of a query, read by column.
  package struct Row {
    fileprivate let handle: OpaquePointer

    package func text(_ column: Int32) -> String? {
      // By its length, not up to a NUL: a name with one in it is read back whole.
      sqlite3_column_text(handle, column).map {
        String(decoding: UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
      }
    }

    package func integer(_ column: Int32) -> Int {
      Int(sqlite3_column_int64(handle, column))
    }
  }

  private let handle: OpaquePointer
  private let store: HistoryStore

  init(_ handle: OpaquePointer, of store: HistoryStore) {
    self.handle = handle
    self.store = store
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
        case .integer(let number): sqlite3_bind_int64(handle, position, Int64(number))
        }
      guard status == SQLITE_OK else { throw store.error(status, what: sql) }
    }
    while true {
      let status = sqlite3_step(handle)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw store.error(status, what: sql) }
      try body(Row(handle: handle))
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
