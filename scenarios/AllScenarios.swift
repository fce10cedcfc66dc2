import FlakeLab

extension ScenarioCatalog {
  /// Every scenario of the lab, in the order `list` shows them.
  public static let standard = ScenarioCatalog([
    isLoading, backToBack, cancel, screenshots, toggleRace, runtimeOrder, countdown, labCrash,
    labHang, labDeadlock,
  ])
}
