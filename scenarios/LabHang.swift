import FlakeLab

/// A diagnostic of the lab itself: never completes on every iteration whose index `i` has
/// `i % 50 == 49` and passes otherwise, so the counts of a run with `--timeout` are known exactly
/// (1,000 iterations: 980 passed, 20 timed out).
let labHang = Scenario(
  name: "lab.hang",
  summary: "never completes on every 50th iteration (index % 50 == 49); checks timeouts",
  source: "FlakeLab's own diagnostics",
  isDiagnostic: true,
  variants: [
    Variant(name: "every50th", summary: "awaits forever when index % 50 == 49, else pass") {
      iteration in
      if iteration.index % 50 == 49 {
        try await Task<Void, Never>.never()
      }
    }
  ]
)
