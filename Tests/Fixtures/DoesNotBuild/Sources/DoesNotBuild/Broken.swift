/// Does not compile, on purpose.
public let answer: Int = "forty-two"
