import Foundation
import Store

extension StoreChoice {
    /// `store`: `{"type": "sqlite"}` (the file `database`, the default) or
    /// `{"type": "postgres", "url": "postgres://USER@HOST/DB", "password", "schema", "leaseTime"}`
    /// (docs/configuration.md#the-store), and the fleet's lease time.
    static func load(
        _ value: JSONValue?, at path: String, in context: ConfigContext
    ) -> (StoreChoice, leaseTime: Duration) {
        let reader = context.reader
        var leaseTime = PostgresLeases.defaultLeaseTime
        guard let value, let fields = reader.object(value, at: path) else { return (.sqlite, leaseTime) }
        defer { fields.finish(reader) }
        if let value = fields.take("leaseTime"),
            let time = reader.duration(value, at: fields.path("leaseTime"), atLeast: .seconds(1))
        {
            leaseTime = time
        }
        return (choice(fields, in: context), leaseTime)
    }

    /// The store `type` names, and its `url`, `password` and `schema`.
    private static func choice(_ fields: ObjectFields, in context: ConfigContext) -> StoreChoice {
        let reader = context.reader
        func text(_ key: String) -> String? {
            guard let value = fields.take(key), let raw = reader.string(value, at: fields.path(key)) else {
                return nil
            }
            return context.substitute(raw, at: fields.path(key))
        }
        switch text("type") ?? "sqlite" {
        case "sqlite":
            return .sqlite
        case "postgres":
            let password = text("password")
            let schema = text("schema") ?? PostgresLocation.defaultSchema
            guard let url = text("url") else {
                reader.report(fields.path("url"), "is required: postgres://USER@HOST:PORT/DATABASE")
                return .sqlite
            }
            do {
                var location = try PostgresLocation(url: url, schema: schema)
                if let password { location.password = password }
                if let secret = location.password, !secret.isEmpty {
                    context.substitution.keepSecret(secret, as: "[password]")
                    let encoded = URLComponents(string: url)?.percentEncodedPassword
                    if let encoded, !encoded.isEmpty { context.substitution.keepSecret(encoded, as: "[password]") }
                }
                return .postgres(location)
            } catch {
                reader.report(fields.path(error.message.contains("schema") ? "schema" : "url"), error.message)
                return .sqlite
            }
        default:
            reader.report(fields.path("type"), "must be \"sqlite\" or \"postgres\"")
            return .sqlite
        }
    }
}
