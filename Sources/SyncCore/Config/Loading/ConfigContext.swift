/// What the loading of every section shares while one configuration is
/// loaded (docs/configuration.md#configuration): the reader that collects the
/// problems, the substitution that fills `${…}` and keeps the secrets, and the
/// top-level `auths` that resources name.
///
/// Each section loads itself in its own extension (`Pagination+Loading.swift`:
/// `Pagination.load(_:at:in:)`), given this context.
///
/// Thread-safety: not `Sendable`; used by one load.
final class ConfigContext {
    /// Reads values, collecting every problem.
    let reader = ConfigReader()
    /// Fills `${…}` references and keeps every secret, for the ``Redactor``.
    var substitution: Substitution
    /// The top-level `auths`, by name.
    var authsByName: [String: Auth] = [:]

    init(substitution: Substitution) {
        self.substitution = substitution
    }

    /// `text` with its references filled, or `nil` (and a problem at `path`).
    func substitute(_ text: String, at path: String) -> String? {
        do {
            return try substitution.apply(text)
        } catch {
            reader.report(path, error.message)
            return nil
        }
    }
}
