import Foundation

/// A resource URL that may read other resources' records
/// (docs/configuration.md#dependent-resources): each `{resource:/json/pointer}`
/// is filled, at sync time, from that resource's single record.
package struct URLTemplate: Sendable, Hashable {
    /// A part of the template.
    package enum Part: Sendable, Hashable {
        /// Text used as is (after `${…}` substitution).
        case text(String)
        /// The value at `pointer` in the record of `resource`, percent-encoded.
        case dependency(Dependency)
        /// The value an incremental sync sends (`{since}`, docs/configuration.md#placeholders), percent-encoded.
        case since(TimeFormat?)
    }

    /// A `{resource:/pointer}` placeholder.
    package struct Dependency: Sendable, Hashable, CustomStringConvertible {
        /// The resource whose record is read.
        package var resource: String
        /// Where in the record the value is.
        package var pointer: JSONPointer

        /// The placeholder as written: `{resource:/pointer}`.
        package var description: String { "{\(resource):\(pointer)}" }
    }

    /// The parts, in order.
    package var parts: [Part]
    /// The URL as the configuration wrote it (`${…}` references unfilled): safe to show.
    package var display: String

    /// The placeholders, in order.
    package var dependencies: [Dependency] {
        parts.compactMap {
            if case .dependency(let dependency) = $0 { return dependency }
            return nil
        }
    }

    /// Whether the URL holds a `{since}` placeholder.
    package var hasSince: Bool {
        parts.contains { if case .since = $0 { true } else { false } }
    }

    /// The formats its `{since:…}` placeholders give.
    package var formats: [TimeFormat] {
        parts.compactMap { if case .since(let format?) = $0 { format } else { nil } }
    }

    /// The URL with each placeholder replaced by `values[placeholder]`, or by
    /// `since`'s text, percent-encoded.
    package func render(_ values: [Dependency: String] = [:], since: SentValue? = nil) -> String {
        parts.map { part in
            switch part {
            case .text(let text): return text
            case .dependency(let dependency):
                return PercentEncoding.encode(values[dependency] ?? "")
            case .since(let format):
                return since.map { PercentEncoding.encode($0.text(format)) } ?? ""
            }
        }.joined()
    }

    /// Splits `raw` into text and placeholders, substituting `${…}` in the text.
    static func parse(_ raw: String, substitution: inout Substitution) throws(Substitution.Problem) -> URLTemplate {
        var parts: [Part] = []
        var rest = Substring(raw)
        while let open = rest.firstIndex(of: "{") {
            // `${` belongs to substitution, not to a placeholder.
            if open > rest.startIndex, rest[rest.index(before: open)] == "$" {
                guard let close = rest[open...].firstIndex(of: "}") else { break }
                parts.append(.text(String(rest[...close])))
                rest = rest[rest.index(after: close)...]
                continue
            }
            parts.append(.text(String(rest[..<open])))
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw Substitution.Problem(
                    message: "\"{\" opens a placeholder {resource:/pointer} that is never closed "
                        + "(write %7B for a literal brace)")
            }
            let inside = String(rest[rest.index(after: open)..<close])
            if inside == "since" || inside.hasPrefix("since:") {
                do {
                    let template = try TextTemplate.parse("{\(inside)}")
                    parts.append(.since(template.formats.first))
                } catch {
                    throw Substitution.Problem(message: error.message)
                }
            } else {
                parts.append(.dependency(try dependency(inside)))
            }
            rest = rest[rest.index(after: close)...]
        }
        parts.append(.text(String(rest)))
        var merged: [Part] = []
        for part in parts {
            switch part {
            case .text(let text):
                let filled = try substitution.apply(text)
                guard !filled.isEmpty else { continue }
                if case .text(let previous) = merged.last {
                    merged[merged.count - 1] = .text(previous + filled)
                } else {
                    merged.append(.text(filled))
                }
            case .dependency, .since: merged.append(part)
            }
        }
        return URLTemplate(parts: merged, display: raw)
    }

    private static func dependency(_ inside: String) throws(Substitution.Problem) -> Dependency {
        guard let colon = inside.firstIndex(of: ":") else {
            throw Substitution.Problem(
                message: "placeholder \"{\(inside)}\" must look like {resource:/json/pointer} "
                    + "(write %7B for a literal brace)")
        }
        let resource = String(inside[..<colon])
        guard ConfigLoader.isValidName(resource) else {
            throw Substitution.Problem(message: "placeholder \"{\(inside)}\" must name a resource before \":\"")
        }
        do {
            return Dependency(
                resource: resource, pointer: try JSONPointer(String(inside[inside.index(after: colon)...])))
        } catch {
            throw Substitution.Problem(message: "placeholder \"{\(inside)}\": \(error)")
        }
    }
}
