@_spi(PluginMessage) import SwiftCompilerPluginMessageHandling
import SwiftSyntaxMacros

/// The compiler plugin that provides `@Generable`, `@Guide` and `@SessionPropertyEntry`.
///
/// The toolchain ships SwiftSyntax for plugins but not swift-syntax's `SwiftCompilerPlugin`
/// module, so this is its small equivalent: it answers the compiler's messages on standard
/// input and output and resolves macro type names to the types below.
@main
struct MacroPlugin: PluginProvider {
  /// The macros this plugin provides, by type name.
  static var macros: [any Macro.Type] {
    [GenerableMacro.self, GuideMacro.self, EntryMacro.self, SessionPropertyEntryDefaultValueMacro.self]
  }

  func resolveMacro(moduleName: String, typeName: String) throws -> any Macro.Type {
    guard let macro = Self.macros.first(where: { "\($0)" == typeName }) else {
      throw UnknownMacroError(moduleName: moduleName, typeName: typeName)
    }
    return macro
  }

  static func main() throws {
    let connection = try StandardIOMessageConnection()
    try CompilerPluginMessageListener(connection: connection, provider: MacroPlugin()).main()
  }
}

/// The compiler asked for a macro type that this plugin does not provide.
struct UnknownMacroError: Error, CustomStringConvertible {
  let moduleName: String
  let typeName: String

  var description: String { "FoundationModelsMacros has no macro '\(moduleName).\(typeName)'." }
}
