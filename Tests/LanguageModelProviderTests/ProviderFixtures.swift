import Foundation
import FoundationModels
import Synchronization

/// A structured answer, written as an app writes one.
@Generable
struct Forecast {
  var city: String
  var temperature: Int
}

/// A tool that knows two cities, counts how many of its calls overlap, and can take a while.
final class Weather: Tool {
  struct UnknownCity: Error {}

  @Generable
  struct Arguments {
    var city: String
  }

  let name = "weather"
  let description = "The weather in a city."
  let delay: Duration
  private let state = Mutex((running: 0, peak: 0, cities: [String]()))

  init(delay: Duration = .zero) {
    self.delay = delay
  }

  var peakConcurrency: Int { state.withLock { $0.peak } }
  var cities: [String] { state.withLock { $0.cities } }

  func call(arguments: Arguments) async throws -> String {
    state.withLock { state in
      state.running += 1
      state.peak = max(state.peak, state.running)
      state.cities.append(arguments.city)
    }
    defer { state.withLock { $0.running -= 1 } }
    if delay > .zero { try await Task.sleep(for: delay) }
    switch arguments.city {
    case "Oslo": return "cold in Oslo"
    case "Rome": return "warm in Rome"
    default: throw UnknownCity()
    }
  }
}
