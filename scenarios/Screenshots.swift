import FlakeLab
import Foundation

/// Episode 239's and 241's screenshot test of ``NumberFactModel``: start `onTask()`, post the
/// screenshot notification twice, and the count must follow.
///
/// Linux has no UIKit: the notification is a Foundation `NotificationCenter` notification with
/// UIKit's name, bridged to an `AsyncStream` by the model (see ``NumberFactModel/onTask()``).
/// The episodes never cancel the `onTask` task, since their test process ends soon after; the lab
/// runs thousands of iterations in one process, so each iteration cancels it when it ends, after
/// its checks, so that observers do not pile up from one iteration to the next.
///
/// ## Why `singleYield` always fails under `serial` here
///
/// Under the serial executor the first count arrives in time and the second arrives exactly one
/// turn late, on every iteration. A trace of the runtime's global-enqueue hook shows why. The
/// `for await` in `onTask()` calls `AsyncStream.Iterator.next`, which awaits the stream's
/// non-isolated `produce` closure: every trip into and out of it leaves the main actor and comes
/// back, and under the serial executor each such hop is one more job at the back of the main queue.
///
/// - Screenshot 1 is posted while `onTask` is still on its way into `produce` for the first time
///   (the test's first yield let it start, not finish). The element is buffered, `produce` finds
///   it without suspending, and the increment lands before the test's yield comes round.
/// - Screenshot 2 is posted while `onTask` is fully suspended in the stream. Waking it takes a
///   resumption on the generic executor and a hop back to the main actor, four enqueues in the
///   trace, while the test's `Task.yield()` takes two; the test checks first and sees 1. One more
///   yield would see 2.
///
/// So the outcome is decided by how many executor hops the notification sequence costs, which is
/// an implementation detail of the sequence: Apple's `notifications(named:)` is different code
/// and the episode's form passes there. Under `serial` the result is still deterministic, which
/// is the lesson: a serial executor makes a test repeatable, not right. The scenario is left as
/// the episode wrote it.
@MainActor
private func screenshotTest(
  _ iteration: Iteration,
  afterStart: () async -> Void, untilCounted: (NumberFactModel, Int) async -> Void
) async {
  let model = NumberFactModel()
  let task = Task { await model.onTask() }
  defer { task.cancel() }
  await afterStart()
  for expected in 1...2 {
    NotificationCenter.default.post(name: .userDidTakeScreenshot, object: nil)
    await untilCounted(model, expected)
    iteration.expect(
      model.count == expected,
      "count was \(model.count) after screenshot \(expected), expected \(expected)")
  }
}

let screenshots = Scenario(
  name: "screenshots",
  summary: "onTask() counts screenshot notifications as they are posted",
  source: "Point-Free, Reliable Async Tests, episodes 239 and 241 (testScreenshots)",
  variants: [
    Variant(
      name: "megaYield",
      summary: "megaYield after starting onTask; yield until each count arrives (episode 239)",
      claims: [.global: .canPass, .serial: .neverFails, .fifo: .neverFails]
    ) { @MainActor iteration in
      await screenshotTest(iteration, afterStart: { await Task.megaYield() }) { model, expected in
        while model.count != expected { await Task.yield() }
      }
    },
    Variant(
      name: "singleYield",
      summary: "one Task.yield() after starting onTask and after each post (episode 241)",
      claims: [.global: .canFail, .serial: .alwaysFails, .fifo: .alwaysFails]
    ) { @MainActor iteration in
      await screenshotTest(iteration, afterStart: { await Task.yield() }) { _, _ in
        await Task.yield()
      }
    },
  ]
)
