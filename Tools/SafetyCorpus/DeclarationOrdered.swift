/// An enumeration whose cases compare in the order they are declared: the order the reports
/// list sources and groups in.
public protocol DeclarationOrdered: CaseIterable, Comparable {}

extension DeclarationOrdered {
  public static func < (lhs: Self, rhs: Self) -> Bool {
    let order = allCases
    return (order.firstIndex(of: lhs) ?? order.startIndex) < (order.firstIndex(of: rhs) ?? order.startIndex)
  }
}
