extension String {
  /// The length, in characters, of the longest end of this text that begins `marker` without
  /// being all of it: what a reader of streamed text holds back until the next text says
  /// whether the marker follows.
  func lengthOfMarkerStart(_ marker: String) -> Int {
    for length in stride(from: Swift.min(marker.count - 1, count), to: 0, by: -1)
    where hasSuffix(marker.prefix(length)) {
      return length
    }
    return 0
  }
}
