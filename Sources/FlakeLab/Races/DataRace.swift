import Foundation
import Synchronization

/// A data race the thread sanitizer reported in a test's process: two accesses to one place in
/// memory, at least one a write, with nothing ordering them. Both accesses are named, with their
/// stacks as the sanitizer symbolicated them, demangled; the answer opens each at its first frame
/// in the package's own sources (``Access/place``), never at a frame of the toolchain.
package struct DataRace: Sendable, Equatable {
  /// A frame of an access's stack, or of the stack that created its thread.
  package struct Frame: Sendable, Equatable {
    /// The function, demangled (`Counter.bump()`).
    package let function: String
    /// The source file, absolute, where the debug information names one.
    package let path: String?
    /// 0 where the sanitizer gave the file without a line (a Swift access's own frame).
    package let line: Int
    /// The binary or library the frame is in (`libdispatch.so`, `RacesPackageTests.xctest`).
    package let image: String

    package init(function: String, path: String?, line: Int, image: String) {
      self.function = function
      self.path = path
      self.line = line
      self.image = image
    }
  }

  /// What ran an access: the runner an executor orders (a task), or a thread it does not.
  package enum Runner: String, Sendable, CaseIterable {
    /// A job of Swift concurrency: a task, an actor's job.
    case task
    /// The process's main thread, outside any task.
    case mainThread = "main-thread"
    /// A Dispatch queue's block: `async`, `concurrentPerform`, a timer.
    case dispatch
    /// A `Thread` (Foundation's) or a thread started with `pthread_create`.
    case thread
    /// An event loop's thread (SwiftNIO's).
    case eventLoop = "event-loop"

    /// Whether Swift's executors order the runner's work: a serial executor changes nothing of
    /// the others', so no executor contrast can show a race with them.
    package var isOrderedByExecutors: Bool { self == .task || self == .mainThread }

    /// The runner in words.
    package var text: String {
      switch self {
      case .task: "a task"
      case .mainThread: "the main thread"
      case .dispatch: "a Dispatch queue"
      case .thread: "a Thread"
      case .eventLoop: "an event loop"
      }
    }
  }

  /// One of the two accesses.
  package struct Access: Sendable, Equatable {
    package let isWrite: Bool
    /// Bytes accessed; nil for a Swift access (`modify`, `read`), which has none.
    package let size: Int?
    package let runner: Runner
    /// The thread as the sanitizer named it (`T3 'r-initiated-qos'`, `main thread`).
    package let thread: String
    /// The stack of the access, innermost first.
    package let stack: [Frame]
    /// Where the access's thread was created, innermost first; empty for the main thread.
    package let createdAt: [Frame]

    package init(isWrite: Bool, size: Int?, runner: Runner, thread: String, stack: [Frame], createdAt: [Frame]) {
      self.isWrite = isWrite
      self.size = size
      self.runner = runner
      self.thread = thread
      self.stack = stack
      self.createdAt = createdAt
    }

    /// The line to open: the innermost frame with a line in the package's own sources (not a
    /// generated file, not a checkout of a dependency).
    package func place(in packagePath: String) -> SourceLocation? {
      Self.firstOwn(stack, in: packagePath)
    }

    /// The function the access is in, as the innermost frame the package wrote names it (an
    /// assertion's autoclosure has no line: its function still says which test).
    package func function(in packagePath: String) -> String? {
      (stack.first { Self.isOwn($0, in: packagePath) } ?? stack.first)?.function
    }

    /// The package's line that created the access's thread or started its work, if one is on
    /// the creating stack.
    package func startedAt(in packagePath: String) -> SourceLocation? {
      Self.firstOwn(createdAt, in: packagePath)
    }

    private static func firstOwn(_ frames: [Frame], in packagePath: String) -> SourceLocation? {
      frames.first { isOwn($0, in: packagePath) && $0.line > 0 }.map { SourceLocation(path: $0.path!, line: $0.line) }
    }

    /// A frame in a source file of the package, which a person wrote. The package's path may
    /// be relative (as the command was given it); the sanitizer's are absolute.
    static func isOwn(_ frame: Frame, in packagePath: String) -> Bool {
      guard let path = frame.path else { return false }
      let root = DataRace.root(of: packagePath)
      return path.hasPrefix(root) && !path.dropFirst(root.count).hasPrefix(".")
        && !path.contains("/.build") && !path.contains(".derived/")
    }
  }

  /// The package's directory, absolute and with its links resolved, ending in `/`: resolved
  /// once per path, since every frame of every report asks.
  static func root(of packagePath: String) -> String {
    if let known = roots.withLock({ $0[packagePath] }) { return known }
    let absolute = URL(fileURLWithPath: packagePath).standardizedFileURL.resolvingSymlinksInPath().path
    let root = absolute.hasSuffix("/") ? absolute : absolute + "/"
    roots.withLock { $0[packagePath] = root }
    return root
  }

  private static let roots = Mutex<[String: String]>([:])

  /// The sanitizer's word for it: `data race`, or `Swift access race` where Swift's exclusivity
  /// instrumentation saw it (the same race, with Swift's access kinds).
  package let kind: String
  /// The global's name where the memory is one (`Location is global 'registered'`).
  package let variable: String?
  /// The access that came second in the sanitizer's report, then the earlier one.
  package let accesses: [Access]

  package init(kind: String, variable: String?, accesses: [Access]) {
    self.kind = kind
    self.variable = variable
    self.accesses = accesses
  }

  /// The line to open of the two accesses': the package's code before its tests.
  package func placeToOpen(in packagePath: String) -> SourceLocation? {
    let places = accesses.compactMap { $0.place(in: packagePath) }
    return places.first { !$0.path(relativeTo: packagePath).hasPrefix("Tests/") } ?? places.first
  }

  /// The race's identity across processes and machines: its pair of lines from the package's
  /// directory (`Sources/M/Counter.swift:5`), sorted, which a history keeps from run to run. A
  /// place to open is always under the package's resolved root, so no path is resolved here.
  package func key(in packagePath: String) -> [String] {
    let root = Self.root(of: packagePath)
    return accesses.map { access in
      access.place(in: packagePath).map { "\($0.path.dropFirst(root.count)):\($0.line)" }
        ?? access.function(in: packagePath) ?? "?"
    }.sorted()
  }

  /// The race with each frame of the package's that has no line (a Swift access's own frame)
  /// given its function's declaration line, where `declaration` finds one.
  func locatingDeclarations(in packagePath: String, _ declaration: (String, String) -> Int?) -> DataRace {
    func located(_ frame: Frame) -> Frame {
      guard frame.line == 0, let path = frame.path, Access.isOwn(frame, in: packagePath),
        let line = declaration(frame.function, path)
      else { return frame }
      return Frame(function: frame.function, path: path, line: line, image: frame.image)
    }
    return DataRace(
      kind: kind, variable: variable,
      accesses: accesses.map { access in
        Access(
          isWrite: access.isWrite, size: access.size, runner: access.runner, thread: access.thread,
          stack: access.stack.map(located), createdAt: access.createdAt.map(located))
      })
  }

  /// The test among `tests` whose function is on one of the race's stacks (its body, or a
  /// closure in it), the innermost first: the test that ran the racing code.
  package func test(among tests: [PackageTest]) -> PackageTest? {
    let keys = tests.map { ($0, Self.functionKey(of: $0)) }
    for frame in accesses.flatMap({ $0.stack + $0.createdAt }) {
      if let (test, _) = keys.first(where: { frame.function.hasPrefix($0.1) }) { return test }
    }
    return nil
  }

  /// How a frame names a test's function, as ``ThreadSanitizerLog/shortName(_:)`` writes it:
  /// `Module.Suite/inner()` → `Suite.inner(`; XCTest's `Module.Class/testName` → `Class.testName(`.
  static func functionKey(of test: PackageTest) -> String {
    var parts = test.id.split(separator: "/").map(String.init)
    let last = parts.popLast() ?? ""
    // The first part begins with the module: a suite's or class's, or (at file scope) the test's.
    let qualified = parts.isEmpty ? last : parts[0]
    let unqualified = qualified.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? qualified
    let path = parts.isEmpty ? [unqualified] : [unqualified] + parts.dropFirst() + [last]
    return path.joined(separator: ".").split(separator: "(", maxSplits: 1).first.map { $0 + "(" } ?? ""
  }

  /// Whether a runner no executor orders takes part: a Dispatch queue, a `Thread`, an event loop.
  package var involvesUnorderedThread: Bool { accesses.contains { !$0.runner.isOrderedByExecutors } }
}
