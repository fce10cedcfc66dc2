/// The reports a thread-sanitized process wrote (`TSAN_OPTIONS=log_path=…`), read into
/// ``DataRace``s: the races alone, each once, its accesses' threads told apart by what ran them.
///
/// The sanitizer writes each report as a block between lines of `=`:
///
///     WARNING: ThreadSanitizer: data race (pid=27525)
///       Write of size 8 at 0x7208… by thread T1:
///         #0 $s5Races7CounterC4bumpyyF /…/Counter.swift:5:30 (RacesPackageTests.xctest+0x108f57)
///       Previous write of size 8 at 0x7208… by thread T3:
///         …
///       Location is global 'registered' of size 8 at 0x… (…)
///       Thread T1 'r-initiated-qos' (tid=27527, running) created by main thread at:
///         #0 pthread_create …
///
/// Swift's exclusivity instrumentation reports the same two accesses once more as a `Swift access
/// race`, whose own frame has no line: where a data race at the same address was reported too,
/// that one is kept.
package enum ThreadSanitizerLog {
  /// Every race in `log`, each pair of lines once.
  ///
  /// - Parameter declaration: the line where a function of the package's is declared in a file,
  ///   for a frame the sanitizer gave without a line (a Swift access's); ``declarationLine(of:in:)``
  ///   reads the file.
  package static func races(
    in log: String, packagePath: String,
    declaration: (_ function: String, _ path: String) -> Int? = declarationLine(of:in:)
  ) -> [DataRace] {
    let reports = log.split(separator: "==================\n", omittingEmptySubsequences: true).compactMap {
      report($0).map { (race: $0.race.locatingDeclarations(in: packagePath, declaration), address: $0.address) }
    }
    let dataRaceAddresses = Set(reports.filter { $0.race.kind == "data race" }.map(\.address))
    var seen = Set<[String]>()
    return reports.filter { $0.race.kind == "data race" || !dataRaceAddresses.contains($0.address) }.compactMap {
      seen.insert($0.race.key(in: packagePath)).inserted ? $0.race : nil
    }
  }

  /// One report's race and the address raced on; nil for a report of another kind (a lock
  /// inversion, a signal handler) or one the reader does not know the shape of.
  private static func report(_ text: Substring) -> (race: DataRace, address: String)? {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let header = lines.first(where: { $0.hasPrefix("WARNING: ThreadSanitizer: ") }),
      let kind = header.firstMatch(of: #/ThreadSanitizer: (data race|Swift access race)/#)?.1
    else { return nil }
    var sections: [(heading: String, frames: [DataRace.Frame])] = []
    for line in lines {
      let trimmed = line.trimmingPrefix(while: \.isWhitespace)
      if trimmed.hasPrefix("#"), !sections.isEmpty {
        if let frame = frame(String(trimmed)) { sections[sections.count - 1].frames.append(frame) }
      } else if line.hasPrefix("  "), !trimmed.isEmpty {
        sections.append((String(trimmed), []))
      }
    }
    var threads: [String: (name: String, createdAt: [DataRace.Frame])] = [:]
    var variable: String?
    for section in sections {
      if let thread = section.heading.firstMatch(of: #/^Thread (T\d+)( '[^']*')? \(tid=/#) {
        threads[String(thread.1)] = (String(thread.1) + (thread.2.map(String.init) ?? ""), section.frames)
      } else if let global = section.heading.firstMatch(of: #/^Location is global '([^']+)'/#) {
        variable = variableName(SwiftDemangling.demangled(String(global.1)))
      }
    }
    var accesses: [DataRace.Access] = []
    var address = ""
    for section in sections {
      guard
        let access = section.heading.firstMatch(
          of:
            #/^(?:Previous )?(?i:(atomic )?(read|write|modifying access|read-only access))(?: of size (\d+))?(?: of Swift variable)? at (0x[0-9a-f]+) by (main thread|thread (T\d+))/#
        )
      else { continue }
      let verb = access.2.lowercased()
      let thread = access.6.map(String.init)
      address = String(access.4)
      let created = thread.flatMap { threads[$0] }
      accesses.append(
        DataRace.Access(
          isWrite: verb == "write" || verb == "modifying access", size: access.3.flatMap { Int($0) },
          runner: runner(section.frames, created: created?.createdAt ?? [], onMainThread: thread == nil),
          thread: created?.name ?? (thread ?? "main thread"), stack: section.frames, createdAt: created?.createdAt ?? []
        ))
    }
    guard accesses.count == 2 else { return nil }
    return (DataRace(kind: String(kind), variable: variable, accesses: accesses), address)
  }

  /// `#1 $s…testFooyyF /…/Tests/T.swift:16:68 (T.xctest+0x148421) (BuildId: …)`.
  static func frame(_ line: String) -> DataRace.Frame? {
    var text = Substring(line)
    if let buildID = text.range(of: " (BuildId: ") { text = text[..<buildID.lowerBound] }
    guard let space = text.firstIndex(of: " "), text.last == ")", let open = text.lastIndex(of: "(") else { return nil }
    let image =
      text[text.index(after: open)..<text.index(before: text.endIndex)]
      .split(separator: "+").first.map(String.init) ?? ""
    let body = text[text.index(after: space)..<open].trimmingCharacters(in: .whitespaces)
    guard let split = body.lastIndex(of: " ") else {
      return DataRace.Frame(function: shortName(SwiftDemangling.demangled(body)), path: nil, line: 0, image: image)
    }
    let function = shortName(SwiftDemangling.demangled(String(body[..<split])))
    let location = body[body.index(after: split)...]
    guard location.hasPrefix("/"), !location.hasPrefix("/<") else {
      return DataRace.Frame(function: function, path: nil, line: 0, image: image)
    }
    // `/path/File.swift:5:30`, `/path/File.swift:5` or `/path/File.swift`.
    var parts = location.split(separator: ":", omittingEmptySubsequences: false)
    var numbers: [Int] = []
    while parts.count > 1, let number = Int(parts[parts.count - 1]) {
      numbers.insert(number, at: 0)
      parts.removeLast()
    }
    let path = parts.joined(separator: ":")
    return DataRace.Frame(function: function, path: path, line: numbers.first ?? 0, image: image)
  }

  /// What ran an access, by the frames of its stack and of its thread's creation: an event loop
  /// wins over the task it runs (an event loop may be an executor of its own, which the lab's
  /// executors do not order).
  static func runner(
    _ stack: [DataRace.Frame], created: [DataRace.Frame], onMainThread: Bool
  ) -> DataRace.Runner {
    let frames = stack + created
    if frames.contains(where: { $0.function.contains("EventLoop") || $0.image.contains("NIOPosix") }) {
      return .eventLoop
    }
    if stack.contains(where: { $0.image.hasPrefix("libswift_Concurrency") || $0.function.contains("swift::runJob") }) {
      return .task
    }
    if onMainThread { return .mainThread }
    if frames.contains(where: { $0.function.hasPrefix("Thread.main") || $0.function == "_CFThreadCreate" }) {
      return .thread
    }
    if frames.contains(where: { $0.image.hasPrefix("libdispatch") || $0.image.hasPrefix("libswiftDispatch") }) {
      return .dispatch
    }
    return .thread
  }

  /// `static Races.Registry.registered : Swift.Int` → `Registry.registered`.
  static func variableName(_ demangled: String) -> String {
    var name = Substring(demangled)
    if name.hasPrefix("static ") { name = name.dropFirst("static ".count) }
    if let type = name.range(of: " : ") { name = name[..<type.lowerBound] }
    if name.split(separator: ".").count > 2, let dot = name.firstIndex(of: ".") {
      name = name[name.index(after: dot)...]
    }
    return String(name)
  }

  /// The line declaring `function` (`Tally.add(_:)`) in the file at `path`: the one line that
  /// says `func add`; nil where none does, or more than one.
  package static func declarationLine(of function: String, in path: String) -> Int? {
    guard let paren = function.firstIndex(of: "("),
      let text = try? String(contentsOfFile: path, encoding: .utf8)
    else { return nil }
    let base = function[..<paren].split(separator: ".").last.map(String.init) ?? ""
    guard !base.isEmpty else { return nil }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().filter { _, line in
      guard let range = line.range(of: "func \(base)") else { return false }
      let next = line[range.upperBound...].first
      return next == "(" || next == "<" || next == " "
    }
    return lines.count == 1 ? lines[0].offset + 1 : nil
  }

  /// `closure #1 () -> () in RacesTests.DataRaceTests.testFoo() -> ()` → `DataRaceTests.testFoo()`:
  /// the function a person wrote, without its module, its closures' signatures or its type.
  static func shortName(_ demangled: String) -> String {
    var name = Substring(demangled)
    for prefix in ["partial apply for ", "merged ", "reabstraction thunk helper from ", "static "]
    where name.hasPrefix(prefix) {
      name = name.dropFirst(prefix.count)
    }
    if let inner = name.range(of: " in ", options: .backwards), name.contains("closure #") {
      name = name[inner.upperBound...]
    }
    guard name.contains("("), !name.contains("::") else { return String(name) }
    // Drop the signature after the parameter list, then the module.
    var depth = 0
    var end = name.endIndex
    for index in name.indices {
      if name[index] == "(" { depth += 1 }
      if name[index] == ")" {
        depth -= 1
        if depth == 0 {
          end = name.index(after: index)
          break
        }
      }
    }
    name = name[..<end]
    let unqualified = String(name).replacingOccurrences(of: "Swift.", with: "")
    name = Substring(unqualified)
    if let paren = name.firstIndex(of: "("), let dot = name[..<paren].firstIndex(of: "."),
      name[..<dot].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
    {
      name = name[name.index(after: dot)...]
    }
    return String(name)
  }
}
