import Foundation

/// Whether a line of the package's runs inside a `Synchronization.Mutex`'s `withLock`.
///
/// The thread sanitizer does not see a contended `Mutex` hand over on Linux: its fast path is
/// inlined into the instrumented code, but a contended lock and unlock happen in
/// `libswiftSynchronization`, which is not instrumented, so two accesses under one `Mutex` read
/// as a race (seen on the Races fixture's `Tally` made a `Mutex`: reported in every process).
/// A race whose every access of the package's is inside one is set aside: under a lock by
/// construction, and a report that sent its author to add the lock they have is advice the
/// wrong way.
package struct MutexScope {
  /// How far above an access a `withLock {` may open: a closure longer than this is not read.
  static let reach = 12
  private var files: [String: [Substring]?] = [:]
  private let read: (String) -> String?

  /// `read` gives a file's text by its path (the file system's, unless a test says otherwise).
  package init(read: @escaping (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) {
    self.read = read
  }

  /// Whether `place` is inside a `withLock` closure of a file that imports `Synchronization`:
  /// on the access's line or above it, before the declaration it is in.
  package mutating func contains(_ place: SourceLocation) -> Bool {
    if files[place.path] == nil {
      files[place.path] = read(place.path).flatMap { text -> [Substring]? in
        text.contains("import Synchronization") ? text.split(separator: "\n", omittingEmptySubsequences: false) : nil
      }
    }
    guard let lines = files[place.path] ?? nil, place.line >= 1, place.line <= lines.count else { return false }
    for index in stride(from: place.line - 1, through: max(0, place.line - Self.reach), by: -1) {
      let line = lines[index]
      if line.contains(".withLock") { return true }
      if index < place.line - 1, line.contains("func ") || line.contains("init(") { return false }
    }
    return false
  }

  /// Whether every access of `race` the package's code made is inside a `Mutex`'s `withLock`.
  package mutating func guardsEveryOwnAccess(of race: DataRace, in packagePath: String) -> Bool {
    let places = race.accesses.compactMap { $0.place(in: packagePath) }
    return !places.isEmpty && places.allSatisfy { contains($0) }
  }
}
