import FlakeLab
import Foundation
public import XCTest

/// XCTest's `XCTMain(_:)`, as SwiftPM's generated test runner calls it, replaced: the harness's
/// definition comes first in the preloaded process, so the runner calls it instead.
///
/// XCTest on Linux has no repetition flag, and a process per iteration costs milliseconds. The
/// replacement hands the real `XCTMain` the one test the run is about, repeated, and observes
/// each run as test events. In a process the lab did not configure it passes everything on.
@_silgen_name("$s6XCTest7XCTMainys5NeverOSayAA0A4CaseCm04testD5Class_SaySS_yAFKctG8allTeststGF")
public func harnessXCTMain(_ testCases: [XCTestCaseEntry]) -> Never {
  typealias XCTMainFunction = @convention(thin) ([XCTestCaseEntry]) -> Never
  let symbol = "$s6XCTest7XCTMainys5NeverOSayAA0A4CaseCm04testD5Class_SaySS_yAFKctG8allTeststGF"
  guard let original = SystemCalls.symbol(symbol, as: XCTMainFunction.self, next: true) else {
    fatalError("flakelab harness: XCTest's XCTMain was not found")
  }
  guard let configuration = Harness.configuration, configuration.test.framework == .xctest else {
    original(testCases)
  }
  if configuration.isProbe {
    EventOutput.write(.probe(check: .xctMainReplacement, tookEffect: true))
    exit(0)
  }
  let id = configuration.test.id
  for entry in testCases {
    let className = String(reflecting: entry.testCaseClass)
    for (name, body) in entry.allTests where "\(className)/\(name)" == id {
      let repeated = (0..<configuration.repetitions).map { repetition in
        (name, { (testCase: XCTestCase) throws in
          MainQueueScheduler.shared.beginIteration(configuration.firstIndex + repetition)
          // Each iteration starts under serial; one in which the test turned it off is not
          // counted as serial (see `SerialHookWatch` for Swift Testing).
          let isSerial = configuration.mechanism == .mainQueueRedirect
          if isSerial, GlobalEnqueueHook.current == nil { GlobalEnqueueHook.current = GlobalEnqueueHook.mainActorRedirect }
          defer { if isSerial, GlobalEnqueueHook.current == nil { EventOutput.write(.executorChanged) } }
          try body(testCase)
        })
      }
      XCTestObservationCenter.shared.addTestObserver(TestEventObserver(testID: id))
      EventOutput.write(.runStarted)
      original([(testCaseClass: entry.testCaseClass, allTests: repeated)])
    }
  }
  FileHandle.standardError.write(Data("flakelab harness: no XCTest test '\(id)' in this binary\n".utf8))
  exit(1)
}

/// Writes a test event for each run of the test: started, each failure, ended.
private final class TestEventObserver: NSObject, XCTestObservation {
  let testID: String

  init(testID: String) {
    self.testID = testID
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    EventOutput.write(.testStarted(testID: testID))
  }

  func testCase(
    _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
    atLine lineNumber: Int
  ) {
    EventOutput.write(.issueRecorded(testID: testID, message: description, isFailure: true))
  }

  /// A run `XCTSkip` ended is skipped, not passed. XCTest tells no observer the skip's message.
  func testCaseDidFinish(_ testCase: XCTestCase) {
    EventOutput.write(
      testCase.testRun?.hasBeenSkipped == true
        ? .testSkipped(testID: testID, message: "XCTSkip") : .testEnded(testID: testID))
  }
}
