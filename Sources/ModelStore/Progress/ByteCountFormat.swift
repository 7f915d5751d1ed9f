/// Formats byte counts the way model sizes are quoted: decimal units, three significant digits.
public enum ByteCountFormat {
  /// `98 MB`, `491 MB`, `1.1 GB`, `512 B`.
  public static func string(_ bytes: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 999.5, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    // One decimal below 10 keeps "1.1 GB" informative without "491.4 MB" noise.
    let number = unit == 0 || value >= 10 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    return "\(number) \(units[unit])"
  }
}
