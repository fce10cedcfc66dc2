import Foundation

/// What the supervisor tells the harness it preloads into a user's test process, through the
/// environment: how many repetitions, under which of the harness's mechanisms; and which tests,
/// through a file the process inherits (``testListFile()``), since a suite's IDs outgrow what
/// one environment string holds.
///
/// Both sides read and write it here, so the supervisor and the preloaded library
/// (`libFlakeLabPreload.so`) cannot disagree.
package struct HarnessConfiguration: Equatable, Sendable {
  /// How the process is put under the run's executor (``IterationExecutor/harnessMechanism``).
  package var mechanism: HarnessMechanism
  /// The framework of the tests: a process runs one framework's tests.
  package var framework: PackageTest.Framework
  /// The tests the process runs, in order: one test repeated, or every test of a suite pass.
  package var testIDs: [String]
  /// The global index of the process's first iteration; a test's k-th run in the process is
  /// iteration `firstIndex + k` (in a suite pass, the pass's index).
  package var firstIndex: Int
  /// Times the process runs its tests (XCTest; Swift Testing takes `--repetitions`).
  package var repetitions: Int
  /// The run's seed; iteration `i` is scheduled with `SplitMix64.iterationSeed(runSeed:index:)`.
  package var seed: UInt64
  /// Set for the start-up probe: report what took effect and exit.
  package var isProbe: Bool
  /// Busy threads the harness starts to compete for the cores (the stressed layout); 0: none.
  package var noiseThreads: Int
  /// The descriptor of the supervisor's event pipe in the test process: drawn at random
  /// (``randomChannel()``) and named only here, so a test that closes or writes to a
  /// descriptor of its own (3, say) never reaches it. The harness takes it over at start.
  package var channel: Int32
  /// The descriptor the test process reads its tests' IDs from, drawn as the channel is.
  package var testList: Int32

  /// The supervisor's configuration of a process it starts, with both descriptors drawn.
  package init(
    mechanism: HarnessMechanism, tests: [PackageTest], firstIndex: Int = 0, repetitions: Int = 1,
    seed: UInt64 = 0, isProbe: Bool = false, noiseThreads: Int = 0, channel: Int32 = randomChannel()
  ) {
    var list = Self.randomChannel()
    while list == channel { list = Self.randomChannel() }
    self.init(
      mechanism: mechanism, tests: tests, firstIndex: firstIndex, repetitions: repetitions, seed: seed,
      isProbe: isProbe, noiseThreads: noiseThreads, channel: channel, testList: list)
  }

  /// Both descriptors named, nothing drawn: in the test process a draw would come from the
  /// seeded stream the test's own values come from, and the supervisor's draw for the list
  /// redrew whenever it met the channel (1 process in 800), so a seed's values moved by one word
  /// and its replay failed where it had passed.
  private init(
    mechanism: HarnessMechanism, tests: [PackageTest], firstIndex: Int, repetitions: Int, seed: UInt64,
    isProbe: Bool, noiseThreads: Int, channel: Int32, testList: Int32
  ) {
    self.mechanism = mechanism
    framework = tests.first?.framework ?? .xctest
    testIDs = tests.map(\.id)
    self.firstIndex = firstIndex
    self.repetitions = repetitions
    self.seed = seed
    self.isProbe = isProbe
    self.noiseThreads = noiseThreads
    self.channel = channel
    self.testList = testList
  }

  /// The tests' IDs, a line each (an ID never holds a newline), in the file the process finds at
  /// ``testList``.
  package func testListFile() throws -> InheritedFile {
    try InheritedFile(Array(testIDs.joined(separator: "\n").utf8), as: testList)
  }

  /// A descriptor number far above what a process opens by itself, under the limit of open
  /// files (1,024 as a rule).
  package static func randomChannel() -> Int32 {
    var limit = rlimit()
    let ceiling =
      getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? min(1000, Int32(clamping: limit.rlim_cur)) : 256
    return Int32.random(in: min(200, ceiling / 2)..<ceiling)
  }

  package static let prefix = "FLAKELAB_HARNESS_"

  /// The seed of the test process's randomness (`SeededRandomness` in the harness): the run's
  /// seed mixed with the process's first iteration, and apart from the scheduler's seeds for the
  /// same iterations. The process's values are a SplitMix64 stream from it, and the harness draws
  /// none of them itself: the test's first value is the stream's first.
  package static func randomnessSeed(runSeed: UInt64, firstIndex: Int) -> UInt64 {
    SplitMix64.mix(SplitMix64.iterationSeed(runSeed: runSeed, index: firstIndex) ^ 0x5EED_0F_4A4D_0E55)
  }

  /// The variables to add to the test process's environment.
  package var environment: [String: String] {
    [
      Self.prefix + "MECHANISM": mechanism.rawValue,
      Self.prefix + "TEST_LIST": String(testList),
      Self.prefix + "FRAMEWORK": framework.rawValue,
      Self.prefix + "FIRST_INDEX": String(firstIndex),
      Self.prefix + "REPETITIONS": String(repetitions),
      Self.prefix + "SEED": String(seed),
      Self.prefix + "PROBE": isProbe ? "1" : "0",
      Self.prefix + "NOISE": String(noiseThreads),
      Self.prefix + "CHANNEL": String(channel),
    ]
  }

  /// The configuration in `environment`, with the tests read (and the descriptor closed) by
  /// `readTests`; nil in a process the lab did not start.
  package init?(environment: [String: String], readTests: (Int32) -> [UInt8]? = InheritedFile.readAll) {
    func value(_ name: String) -> String? { environment[Self.prefix + name] }
    guard let mechanism = value("MECHANISM").flatMap(HarnessMechanism.init(rawValue:)),
      let list = value("TEST_LIST").flatMap({ Int32($0) }), let bytes = readTests(list),
      let framework = value("FRAMEWORK").flatMap(PackageTest.Framework.init),
      let firstIndex = value("FIRST_INDEX").flatMap({ Int($0) }),
      let repetitions = value("REPETITIONS").flatMap({ Int($0) }),
      let seed = value("SEED").flatMap({ UInt64($0) }),
      let channel = value("CHANNEL").flatMap({ Int32($0) })
    else { return nil }
    self.init(
      mechanism: mechanism,
      tests: String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
        PackageTest(id: String($0), framework: framework)
      },
      firstIndex: firstIndex,
      repetitions: repetitions, seed: seed, isProbe: value("PROBE") == "1",
      noiseThreads: value("NOISE").flatMap { Int($0) } ?? 0, channel: channel, testList: list)
  }

  /// The names of every variable, to remove from the environment of the test's own children.
  package static var variableNames: [String] {
    ["MECHANISM", "TEST_LIST", "FRAMEWORK", "FIRST_INDEX", "REPETITIONS", "SEED", "PROBE", "NOISE", "CHANNEL"].map {
      prefix + $0
    }
  }
}
