package import FlakeLab

extension ScenarioCatalog {
  /// Every scenario of the lab, in the order `list` shows them, with the lab's executors. A
  /// test builds it, so a claim under a misspelled executor cannot ship.
  package static let standard = try! ScenarioCatalog([
    isLoading, backToBack, cancel, screenshots, toggleRace, runtimeOrder, countdown, labCrash,
    labHang, labDeadlock,
  ])
}
