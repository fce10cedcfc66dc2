import FlakeLab

/// A diagnostic of the lab itself: on every iteration whose index `i` has `i % 10 == 9` the test
/// awaits a continuation that nobody will ever resume, the commonest way an async test hangs.
/// Under `seeded` and `fifo` such an iteration is recorded as deadlocked at once (1,000
/// iterations: 900 passed, 100 deadlocked); under `global` and `serial` it times out.
let labDeadlock = Scenario(
  name: "lab.deadlock",
  summary: "awaits a continuation nobody resumes on every 10th iteration; checks deadlock detection",
  source: "FlakeLab's own diagnostics",
  isDiagnostic: true,
  variants: [
    Variant(
      name: "forgottenContinuation",
      summary: "withUnsafeContinuation that is never resumed when index % 10 == 9, else pass"
    ) { iteration in
      if iteration.index % 10 == 9 {
        await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
      }
    }
  ]
)
