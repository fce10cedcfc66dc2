import Foundation

/// A `-wal` file read as SQLite's write-ahead log format lays it out: which pages its committed
/// frames hold, the frames SQLite would apply when it opens the database beside it.
///
/// SQLite applies any valid log it finds beside a database, whichever database wrote it. Every
/// FlakeLab write also counts itself in the history's identity row
/// (``HistoryStore/transaction(_:)``), so a log FlakeLab wrote for a history always holds that
/// history's identity page; a log that does not was written for another file, or by another
/// program, and is refused before anything applies it.
struct WriteAheadLog {
  /// The page numbers of the frames up to the last commit, each once.
  let committedPages: Set<UInt32>

  /// The log in `bytes`; nil when they are no write-ahead log (a bad magic number or header
  /// checksum).
  init?(_ bytes: [UInt8]) {
    guard bytes.count >= 32 else { return nil }
    let magic = Self.word(bytes, at: 0)
    guard magic & 0xFFFF_FFFE == 0x377F_0682 else { return nil }
    let bigEndian = magic & 1 == 1
    let pageSize = Int(Self.word(bytes, at: 8))
    let salts = (Self.word(bytes, at: 16), Self.word(bytes, at: 20))
    var sum = Self.checksum(bytes[0..<24], bigEndian: bigEndian, from: (0, 0))
    guard sum == (Self.word(bytes, at: 24), Self.word(bytes, at: 28)), pageSize >= 512 else { return nil }
    var pages: Set<UInt32> = []
    var committed: Set<UInt32> = []
    var offset = 32
    while offset + 24 + pageSize <= bytes.count {
      let page = Self.word(bytes, at: offset)
      guard Self.word(bytes, at: offset + 8) == salts.0, Self.word(bytes, at: offset + 12) == salts.1 else { break }
      sum = Self.checksum(bytes[offset..<(offset + 8)], bigEndian: bigEndian, from: sum)
      sum = Self.checksum(bytes[(offset + 24)..<(offset + 24 + pageSize)], bigEndian: bigEndian, from: sum)
      guard sum == (Self.word(bytes, at: offset + 16), Self.word(bytes, at: offset + 20)) else { break }
      pages.insert(page)
      if Self.word(bytes, at: offset + 4) != 0 { committed = pages }
      offset += 24 + pageSize
    }
    committedPages = committed
  }

  /// The log beside `path`, if it can be read.
  init?(beside path: String) {
    guard let data = FileManager.default.contents(atPath: path + "-wal") else { return nil }
    self.init(Array(data))
  }

  private static func word(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
  }

  /// SQLite's log checksum: pairs of 32-bit words in the byte order the magic number says.
  private static func checksum(
    _ bytes: ArraySlice<UInt8>, bigEndian: Bool, from start: (UInt32, UInt32)
  ) -> (UInt32, UInt32) {
    var (s0, s1) = start
    var index = bytes.startIndex
    func next() -> UInt32 {
      let word = (0..<4).reduce(UInt32(0)) { value, byte in
        value | UInt32(bytes[index + byte]) << (bigEndian ? UInt32(24 - 8 * byte) : UInt32(8 * byte))
      }
      index += 4
      return word
    }
    while index + 8 <= bytes.endIndex {
      s0 = s0 &+ next() &+ s1
      s1 = s1 &+ next() &+ s0
    }
    return (s0, s1)
  }
}
