/// Every matcher stack the automaton has seen, stored as a persistent linked list: a stack is
/// the id of its top frame, and each frame links to the stack below it.
///
/// Why: the automaton hashes every stack it builds. Stored whole, a stack costs work in
/// proportion to its depth on every push, pop and hash, so a value nested 50 levels deep made
/// each new transition 50 times dearer. Linked, pushing is one hash of a frame and a parent id,
/// popping is reading the parent, and stacks that share their lower part share its storage.
struct MatcherStacks {
  /// The id of the empty stack (a complete output).
  static let empty: Int32 = 0

  private struct Link: Hashable {
    var frame: MatcherFrame
    var parent: Int32
  }

  /// Per stack id: its top frame (a placeholder for the empty stack), the stack below, and
  /// how many frames it holds.
  private var frames: [MatcherFrame] = [.value(-1)]
  private var parents: [Int32] = [-1]
  private var depths: [Int32] = [0]
  private var ids: [Link: Int32] = [:]

  /// Number of distinct stacks, the empty one included.
  var count: Int { frames.count }

  /// The stack `parent` with `frame` on top.
  mutating func push(_ frame: MatcherFrame, on parent: Int32) -> Int32 {
    let link = Link(frame: frame, parent: parent)
    if let id = ids[link] { return id }
    let id = Int32(frames.count)
    frames.append(frame)
    parents.append(parent)
    depths.append(depths[Int(parent)] + 1)
    ids[link] = id
    return id
  }

  /// The stack `parent` with `frames` pushed in order (the last one on top).
  mutating func push(_ frames: MatcherFrame..., on parent: Int32) -> Int32 {
    var stack = parent
    for frame in frames { stack = push(frame, on: stack) }
    return stack
  }

  /// The top frame, or nil for the empty stack.
  @inline(__always)
  func top(_ stack: Int32) -> MatcherFrame? {
    stack == Self.empty ? nil : frames[Int(stack)]
  }

  /// The stack below the top frame (the empty stack stays empty).
  @inline(__always)
  func below(_ stack: Int32) -> Int32 {
    stack == Self.empty ? Self.empty : parents[Int(stack)]
  }

  /// How many frames the stack holds.
  @inline(__always)
  func depth(_ stack: Int32) -> Int { Int(depths[Int(stack)]) }

  /// The frames from the bottom up (diagnostics and tests).
  func frames(of stack: Int32) -> [MatcherFrame] {
    var result: [MatcherFrame] = []
    var s = stack
    while s != Self.empty {
      result.append(frames[Int(s)])
      s = parents[Int(s)]
    }
    return result.reversed()
  }
}
