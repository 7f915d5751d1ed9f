// placeholder declaration; the integrator replaces this file
public final class LanguageModelSession: @unchecked Sendable {}
