import Foundation

/// The function symbols of an ELF file's full symbol table (`.symtab`), by address: a test
/// binary exports few of its functions (`dladdr` finds none of a test's), but unless it is
/// stripped its symbol table names them all.
struct ELFSymbols {
  private struct Function {
    let start: UInt
    let end: UInt
    let name: Int
  }

  private let file: Data
  private let functions: [Function]
  /// Where the file's names are: its symbol table's string table.
  private let names: Int

  /// The symbols of the ELF64 file at `path`, mapped rather than read; nil if it has no table.
  init?(path: String) {
    guard let file = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped), file.count > 64,
      file.starts(with: [0x7F, 0x45, 0x4C, 0x46]), file[4] == 2
    else { return nil }
    func integer(_ offset: Int, _ size: Int) -> UInt {
      guard offset >= 0, offset + size <= file.count else { return 0 }
      return (0..<size).reduce(0) { $0 | UInt(file[offset + $1]) << (8 * $1) }
    }
    let sections = Int(integer(0x28, 8))
    let sectionSize = Int(integer(0x3A, 2))
    let count = Int(integer(0x3C, 2))
    guard sectionSize >= 64,
      let table = (0..<count).map({ sections + $0 * sectionSize }).first(where: { integer($0 + 4, 4) == 2 })
    else { return nil }
    let strings = sections + Int(integer(table + 40, 4)) * sectionSize
    let offset = Int(integer(table + 24, 8))
    let size = Int(integer(table + 32, 8))
    var functions: [Function] = []
    for symbol in stride(from: offset, to: offset + size - 23, by: 24) where file[symbol + 4] & 0xF == 2 {
      let start = integer(symbol + 8, 8)
      let length = integer(symbol + 16, 8)
      if start > 0 { functions.append(Function(start: start, end: start + max(1, length), name: Int(integer(symbol, 4)))) }
    }
    self.file = file
    self.functions = functions.sorted { $0.start < $1.start }
    names = Int(integer(strings + 24, 8))
  }

  /// The name of the function at file address `address`, mangled as the table has it.
  func name(at address: UInt) -> String? {
    var low = 0
    var high = functions.count
    while low < high {
      let middle = (low + high) / 2
      if functions[middle].start <= address { low = middle + 1 } else { high = middle }
    }
    guard low > 0, address < functions[low - 1].end else { return nil }
    let start = names + functions[low - 1].name
    guard start < file.count, let end = file[start...].firstIndex(of: 0) else { return nil }
    return String(decoding: file[start..<end], as: UTF8.self)
  }
}
