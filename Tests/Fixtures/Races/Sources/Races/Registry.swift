/// A shared registry kept in a static that the compiler was told not to check.
public enum Registry {
  nonisolated(unsafe) public static var registered = 0
  public static func register() { registered += 1 }
}
