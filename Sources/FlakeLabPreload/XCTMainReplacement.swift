import FlakeLab
import Foundation
public import XCTest

/// XCTest's `XCTMain(_:)`, as SwiftPM's generated test runner calls it, replaced: the harness's
/// definition comes first in the preloaded process, so the runner calls it instead.
///
/// XCTest on Linux has no repetition flag, and a process per iteration costs milliseconds. The
/// replacement hands the real `XCTMain` the run's tests (one test repeated, or a suite pass's
/// tests once each, in XCTest's order) and observes each run as test events. In a process the
/// lab did not configure it passes everything on.
@_silgen_name("$s6XCTest7XCTMainys5NeverOSayAA0A4CaseCm04testD5Class_SaySS_yAFKctG8allTeststGF")
public func harnessXCTMain(_ testCases: [XCTestCaseEntry]) -> Never {
  typealias XCTMainFunction = @convention(thin) ([XCTestCaseEntry]) -> Never
  let symbol = "$s6XCTest7XCTMainys5NeverOSayAA0A4CaseCm04testD5Class_SaySS_yAFKctG8allTeststGF"
  guard let original = SystemCalls.symbol(symbol, as: XCTMainFunction.self, next: true) else {
    fatalError("flakelab harness: XCTest's XCTMain was not found")
  }
  guard let configuration = Harness.configuration, configuration.framework == .xctest else {
    original(testCases)
  }
  if configuration.isProbe {
    EventOutput.write(.probe(check: .xctMainReplacement, tookEffect: true))
    EventOutput.write(.probe(check: .swiftTestingRunner, tookEffect: InProcessSwiftTesting.fits()))
    exit(0)
  }
  let wanted = Set(configuration.testIDs)
  var selected: [XCTestCaseEntry] = []
  // XCTest runs them in this order, one at a time: the observer names each run from it.
  var order: [String] = []
  for entry in testCases {
    let className = String(reflecting: entry.testCaseClass)
    var tests: [(String, (XCTestCase) throws -> Void)] = []
    for (name, body) in entry.allTests where wanted.contains("\(className)/\(name)") {
      for repetition in 0..<configuration.repetitions {
        order.append("\(className)/\(name)")
        tests.append(
          (
            name,
            { testCase in
              MainQueueScheduler.shared.beginIteration(configuration.firstIndex + repetition)
              BlockWatch.iterationBegins()
              // Each run starts under serial; one in which the test turned it off is not counted
              // as serial (see `SerialHookWatch` for Swift Testing).
              let isSerial = configuration.mechanism == .mainQueueRedirect
              if !configuration.mechanism.runsTestsInParallel { DispatchPoolWarmth.warm() }
              if isSerial, GlobalEnqueueHook.current == nil {
                GlobalEnqueueHook.current = GlobalEnqueueHook.mainActorRedirect
              }
              defer { if isSerial, GlobalEnqueueHook.current == nil { EventOutput.write(.executorChanged) } }
              try body(testCase)
            }
          ))
      }
    }
    if !tests.isEmpty { selected.append((testCaseClass: entry.testCaseClass, allTests: tests)) }
  }
  guard !selected.isEmpty else {
    FileHandle.standardError.write(
      Data(
        "flakelab harness: no XCTest test '\(configuration.testIDs.joined(separator: "', '"))' in this binary\n".utf8))
    exit(1)
  }
  XCTestObservationCenter.shared.addTestObserver(TestEventObserver(order: order))
  EventOutput.write(.runStarted)
  original(selected)
}

/// Writes test events for each run of a test: started, each failure, ended.
private final class TestEventObserver: NSObject, XCTestObservation {
  /// The ID of each run, in the order XCTest runs them.
  let order: [String]
  private var next = 0
  private var current: String

  init(order: [String]) {
    self.order = order
    current = order[0]
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    current = order[min(next, order.count - 1)]
    next += 1
    EventOutput.write(.testStarted(testID: current, at: TestEvent.now))
  }

  func testCase(
    _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
    atLine lineNumber: Int
  ) {
    // XCTest joins the assertion and the test's own message with " - ", also when there is none.
    let message = description.hasSuffix(" - ") ? String(description.dropLast(3)) : description
    EventOutput.write(
      .issueRecorded(
        testID: current, message: message, isFailure: true,
        location: filePath.map { SourceLocation(path: $0, line: lineNumber) }))
  }

  /// A run `XCTSkip` ended is skipped, not passed. XCTest tells no observer the skip's message.
  /// An end says how many failures XCTest counted, which the supervisor checks against those it
  /// read: a test that cut the lab's channel is never taken to have passed.
  func testCaseDidFinish(_ testCase: XCTestCase) {
    EventOutput.write(
      testCase.testRun?.hasBeenSkipped == true
        ? .testSkipped(testID: current, message: "XCTSkip")
        : .testEnded(testID: current, at: TestEvent.now, issues: testCase.testRun?.totalFailureCount))
  }

  /// Every test given has run: the supervisor checks the events it read against this count.
  func testBundleDidFinish(_ testBundle: Bundle) {
    EventOutput.writeRunEnded()
  }
}
