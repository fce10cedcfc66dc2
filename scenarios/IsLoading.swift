import FlakeLab

/// The swift-concurrency-extras README's `NumberFactModel`, with its `isLoading` test.
///
/// The model is not isolated to any actor, as in the README: its state is shared between the
/// test and the task the test spawns without protection, which Swift 6 only accepts with
/// `@unchecked Sendable`. That is the point: the test reads `isLoading` while another task may be
/// writing it, and what it sees depends on the executor. (Namespaced apart from the episodes'
/// `@MainActor` model of the same name in `NumberFactModel.swift`.)
enum ReadmeExample {}

extension ReadmeExample {
  final class NumberFactModel: @unchecked Sendable {
    var fact: String?
    var isLoading = false
    var number = 0

    let getFact: @Sendable (Int) async throws -> String

    init(getFact: @escaping @Sendable (Int) async throws -> String) {
      self.getFact = getFact
    }

    func getFactButtonTapped() async {
      isLoading = true
      defer { isLoading = false }
      do {
        fact = try await getFact(number)
      } catch {
        // The README leaves errors unhandled.
      }
    }
  }
}

/// The test of all five variants: tap, check the loading state, let the request finish, check the
/// result. `beforeFirstCheck` is what each variant does between spawning and the first checks;
/// `answer` is how its endpoint answers.
private func isLoadingTest(
  _ iteration: Iteration,
  answer: @escaping @Sendable (Int) async throws -> String,
  releaseAfterFirstCheck: @Sendable () -> Void = {},
  beforeFirstCheck: () async -> Void
) async {
  let model = ReadmeExample.NumberFactModel(getFact: answer)
  let task = Task { await model.getFactButtonTapped() }
  await beforeFirstCheck()
  iteration.expect(model.isLoading, "isLoading was false right after the tap")
  iteration.expect(model.fact == nil, "a fact had arrived before the first check")
  releaseAfterFirstCheck()
  await task.value
  iteration.expect(!model.isLoading, "isLoading was still true after the request finished")
  iteration.expect(
    model.fact == "0 is a good number.",
    "fact was \(model.fact.map { "'\($0)'" } ?? "nil") after the request finished")
}

private let immediateAnswer: @Sendable (Int) async throws -> String = { "\($0) is a good number." }

/// An endpoint that waits until the test feeds it a fact (episode 238's stream form).
private func streamTest(_ iteration: Iteration, beforeFirstCheck: () async -> Void) async {
  let (facts, feed) = AsyncStream.makeStream(of: String.self)
  await isLoadingTest(
    iteration,
    answer: { _ in await facts.first(where: { _ in true }) ?? "" },
    releaseAfterFirstCheck: { feed.yield("0 is a good number.") },
    beforeFirstCheck: beforeFirstCheck)
}

let isLoading = Scenario(
  name: "isLoading",
  summary: "isLoading is true while a number fact loads, false after",
  source:
    "swift-concurrency-extras README (\"Reliably testing async code\"); Point-Free episodes 238-239",
  variants: [
    Variant(
      name: "naive",
      summary: "endpoint answers at once; asserts right after spawning the task",
      claims: [
        .global: .canFail, .serial: .alwaysFails, .fifo: .alwaysFails, .seeded: .alwaysFails,
      ]
    ) { iteration in
      await isLoadingTest(iteration, answer: immediateAnswer) {}
    },
    Variant(
      name: "yield",
      summary: "endpoint answers at once; one Task.yield() before asserting",
      claims: [.global: .canFail, .serial: .alwaysFails, .fifo: .alwaysFails]
    ) { iteration in
      await isLoadingTest(iteration, answer: immediateAnswer) { await Task.yield() }
    },
    Variant(
      name: "endpointYield",
      summary: "the README's fix: endpoint yields once before answering, test yields once",
      claims: [.global: .canFail, .serial: .neverFails, .fifo: .neverFails, .seeded: .canFail]
    ) { iteration in
      await isLoadingTest(
        iteration,
        answer: { number in
          await Task.yield()
          return "\(number) is a good number."
        }
      ) { await Task.yield() }
    },
    Variant(
      name: "stream",
      summary: "endpoint waits on a stream fed after the first checks; one Task.yield()",
      claims: [.global: .canFail, .serial: .neverFails, .fifo: .neverFails]
    ) { iteration in
      await streamTest(iteration) { await Task.yield() }
    },
    Variant(
      name: "megaYield",
      summary: "as stream, with 20 detached background tasks that each yield (episode 239)",
      claims: [.global: .canPass, .serial: .neverFails, .fifo: .neverFails]
    ) { iteration in
      await streamTest(iteration) { await Task.megaYield() }
    },
  ]
)
