import Foundation

extension GenerationGuide where Value == Int {
  /// Generates a value greater than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.minimum(_:)` for `Int`.
  public static func minimum(_ value: Int) -> GenerationGuide<Int> {
    GenerationGuide([.minimum(Double(value))])
  }

  /// Generates a value less than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.maximum(_:)` for `Int`.
  public static func maximum(_ value: Int) -> GenerationGuide<Int> {
    GenerationGuide([.maximum(Double(value))])
  }

  /// Generates a value within the range, bounds included.
  ///
  /// Matches FoundationModels `GenerationGuide.range(_:)` for `Int`.
  public static func range(_ range: ClosedRange<Int>) -> GenerationGuide<Int> {
    GenerationGuide([.minimum(Double(range.lowerBound)), .maximum(Double(range.upperBound))])
  }
}

extension GenerationGuide where Value == Float {
  /// Generates a value greater than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.minimum(_:)` for `Float`.
  public static func minimum(_ value: Float) -> GenerationGuide<Float> {
    GenerationGuide([.minimum(Double(value))])
  }

  /// Generates a value less than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.maximum(_:)` for `Float`.
  public static func maximum(_ value: Float) -> GenerationGuide<Float> {
    GenerationGuide([.maximum(Double(value))])
  }

  /// Generates a value within the range, bounds included.
  ///
  /// Matches FoundationModels `GenerationGuide.range(_:)` for `Float`.
  public static func range(_ range: ClosedRange<Float>) -> GenerationGuide<Float> {
    GenerationGuide([.minimum(Double(range.lowerBound)), .maximum(Double(range.upperBound))])
  }
}

extension GenerationGuide where Value == Double {
  /// Generates a value greater than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.minimum(_:)` for `Double`.
  public static func minimum(_ value: Double) -> GenerationGuide<Double> {
    GenerationGuide([.minimum(value)])
  }

  /// Generates a value less than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.maximum(_:)` for `Double`.
  public static func maximum(_ value: Double) -> GenerationGuide<Double> {
    GenerationGuide([.maximum(value)])
  }

  /// Generates a value within the range, bounds included.
  ///
  /// Matches FoundationModels `GenerationGuide.range(_:)` for `Double`.
  public static func range(_ range: ClosedRange<Double>) -> GenerationGuide<Double> {
    GenerationGuide([.minimum(range.lowerBound), .maximum(range.upperBound)])
  }
}

extension GenerationGuide where Value == Decimal {
  /// Generates a value greater than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.minimum(_:)` for `Decimal`.
  public static func minimum(_ value: Decimal) -> GenerationGuide<Decimal> {
    GenerationGuide([.minimum(NSDecimalNumber(decimal: value).doubleValue)])
  }

  /// Generates a value less than or equal to `value`.
  ///
  /// Matches FoundationModels `GenerationGuide.maximum(_:)` for `Decimal`.
  public static func maximum(_ value: Decimal) -> GenerationGuide<Decimal> {
    GenerationGuide([.maximum(NSDecimalNumber(decimal: value).doubleValue)])
  }

  /// Generates a value within the range, bounds included.
  ///
  /// Matches FoundationModels `GenerationGuide.range(_:)` for `Decimal`.
  public static func range(_ range: ClosedRange<Decimal>) -> GenerationGuide<Decimal> {
    GenerationGuide([
      .minimum(NSDecimalNumber(decimal: range.lowerBound).doubleValue),
      .maximum(NSDecimalNumber(decimal: range.upperBound).doubleValue),
    ])
  }
}
