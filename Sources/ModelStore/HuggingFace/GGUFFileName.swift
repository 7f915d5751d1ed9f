/// What a GGUF file's name says: the quantisation tag and, for a split model, which part it is.
///
/// llama.cpp's `gguf-split` names parts `PREFIX-00001-of-00003.gguf`, and loading the first
/// part finds the others by that name; the tag is the last `-` or `.` separated word before
/// the numbering (`Model-Q4_K_M.gguf` → `Q4_K_M`). This reads names as llama.cpp's
/// `get_gguf_split_info` does (common/download.cpp), so a choice made here is the one
/// `llama-cli -hf` would make.
struct GGUFFileName: Equatable {
  /// The path without `.gguf` and without the split numbering; the parts of one model share it.
  let prefix: String
  /// The quantisation tag, upper-cased (`Q4_K_M`), or empty when the name has none.
  let tag: String
  /// The part number, 1-based; 1 for a file that is not split.
  let index: Int
  /// How many parts the model has; 1 for a file that is not split.
  let count: Int
  /// Whether the path ends in `.gguf` at all.
  let isGGUF: Bool

  /// Reads `path` (a repository path; folders are part of the prefix).
  init(_ path: String) {
    isGGUF = path.hasSuffix(".gguf")
    let stem = isGGUF ? String(path.dropLast(".gguf".count)) : path
    let split = Self.splitNumbering(of: stem)
    index = split?.index ?? 1
    count = split?.count ?? 1
    prefix = split?.prefix ?? stem
    tag = Self.tag(of: prefix)
  }

  /// Whether the file is a language model's weights rather than a companion file: llama.cpp
  /// skips multimodal projectors (`mmproj`), importance matrices and draft or speculative
  /// heads (`mtp-`, `eagle3-`, `dflash-`, `dspark-`) when it picks a model.
  var isModel: Bool {
    guard isGGUF else { return false }
    let fileName = prefix.split(separator: "/").last.map(String.init) ?? prefix
    return !["mmproj", "imatrix", "mtp-", "eagle3-", "dflash-", "dspark-"].contains { fileName.contains($0) }
  }

  /// Whether this is the part a model is loaded from (the only part of an unsplit file).
  var isFirstPart: Bool { index == 1 }

  /// Matches `-NNNNN-of-NNNNN` at the end of `stem` (five digits each, as `gguf-split` writes).
  private static func splitNumbering(of stem: String) -> (prefix: String, index: Int, count: Int)? {
    let characters = Array(stem)
    // "-00001-of-00003" is 15 characters.
    guard characters.count > 15 else { return nil }
    let tail = characters.suffix(15)
    let start = tail.startIndex
    let first = String(tail[(start + 1)..<(start + 6)])
    let last = String(tail[(start + 10)..<(start + 15)])
    guard tail[start] == "-", String(tail[(start + 6)..<(start + 10)]).lowercased() == "-of-",
      first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), let index = Int(first),
      let count = Int(last)
    else { return nil }
    return (String(characters[..<start]), index, count)
  }

  /// The word after the last `-` or `.` when it is made of letters, digits and `_`.
  private static func tag(of stem: String) -> String {
    guard let separator = stem.lastIndex(where: { $0 == "-" || $0 == "." }) else { return "" }
    let word = stem[stem.index(after: separator)...]
    guard !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
      return ""
    }
    return word.uppercased()
  }
}

extension Character {
  /// `0`–`9` only (`isNumber` also takes other scripts' digits and fractions).
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
