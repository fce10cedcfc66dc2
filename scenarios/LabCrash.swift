import FlakeLab

/// A diagnostic of the lab itself: traps on every iteration whose index `i` has
/// `i % 100 == 99` and passes otherwise, so the counts of a supervised run are known exactly
/// (1,000 iterations: 990 passed, 10 crashed), across workers and shards alike.
let labCrash = Scenario(
  name: "lab.crash",
  summary: "traps on every 100th iteration (index % 100 == 99); checks crash isolation",
  source: "FlakeLab's own diagnostics",
  isDiagnostic: true,
  variants: [
    Variant(name: "every100th", summary: "fatalError when index % 100 == 99, else pass") {
      iteration in
      if iteration.index % 100 == 99 {
        fatalError("lab.crash traps on purpose")
      }
    }
  ]
)
