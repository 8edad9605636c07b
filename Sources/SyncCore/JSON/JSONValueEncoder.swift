import Foundation
import Store

extension JSONValue {
    /// `value` as JSON, through its `Encodable` conformance: members in the
    /// order they are encoded, `nil` as `null` (an optional member is always
    /// there), dates as ISO 8601 UTC with milliseconds (docs/api.md#times).
    ///
    /// Foundation's `JSONEncoder` drops `nil` members and does not keep their
    /// order; the status API's objects keep both (docs/api.md).
    ///
    /// The encoder itself never fails; only a type whose `encode(to:)` throws
    /// an error of its own could, and no type the agent encodes does.
    package init(encoding value: some Encodable) {
        let encoder = JSONValueEncoder()
        do {
            try encoder.encodeValue(value)
        } catch {
            preconditionFailure("\(type(of: value)) cannot be encoded: \(error)")
        }
        self = encoder.result
    }
}

extension JSONDecoder {
    /// A decoder for what ``JSONValue/init(encoding:)`` writes: dates as
    /// ISO 8601 UTC with milliseconds.
    package static var api: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = Timestamp.date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not a timestamp: \(text)"))
            }
            return date
        }
        return decoder
    }
}

/// Builds a ``JSONValue`` from `Encodable` values. Each encoder writes into
/// its node of the tree under construction (a nested container or a super
/// encoder into a node of its parent's); the tree is read at the end.
private final class JSONValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// Where this encoder writes: `{}` until something is encoded.
    let node: Node
    private var started = false

    init(codingPath: [any CodingKey] = [], node: Node = Node(.value(.object([])))) {
        self.codingPath = codingPath
        self.node = node
    }

    /// A value being built.
    final class Node {
        enum Content {
            case value(JSONValue)
            case object([(String, Node)])
            case array([Node])
        }

        var content: Content

        init(_ content: Content) {
            self.content = content
        }

        var value: JSONValue {
            switch content {
            case .value(let value): value
            case .object(let members): .object(members.map { JSONValue.Member($0.0, $0.1.value) })
            case .array(let elements): .array(elements.map(\.value))
            }
        }
    }

    var result: JSONValue { node.value }

    func encodeValue(_ value: some Encodable) throws {
        if let date = value as? Date {
            set(.string(Timestamp.string(from: date)))
        } else if let json = value as? JSONValue {
            set(json)
        } else {
            try value.encode(to: self)
        }
    }

    static func encode(_ value: some Encodable, at path: [any CodingKey]) throws -> Node {
        let encoder = JSONValueEncoder(codingPath: path)
        try encoder.encodeValue(value)
        return encoder.node
    }

    /// The node, made an empty object or array when a container first asks for it.
    private func root(_ empty: Node.Content) -> Node {
        if !started {
            started = true
            node.content = empty
        }
        return node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(node: root(.object([])), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(node: root(.array([])), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    fileprivate func set(_ value: JSONValue) {
        started = true
        node.content = .value(value)
    }

    fileprivate func set(_ other: Node) {
        started = true
        node.content = other.content
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func add(_ key: some CodingKey, _ child: Node) {
            guard case .object(var members) = node.content else { return }
            // The node lets go of its members, so they are changed in place, not copied.
            node.content = .value(.null)
            members.removeAll { $0.0 == key.stringValue }
            members.append((key.stringValue, child))
            node.content = .object(members)
        }

        mutating func encodeNil(forKey key: Key) throws { add(key, Node(.value(.null))) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, Node(.value(.bool(value)))) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(key, Node(.value(.string(value)))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key, Node(.value(.number(value)))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { add(key, Node(.value(.number(value)))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Float, forKey key: Key) throws { add(key, Node(.value(.number(Double(value))))) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            add(key, try JSONValueEncoder.encode(value, at: codingPath + [key]))
        }

        // Optional members are written as `null`, not left out.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            guard let value else { return try encodeNil(forKey: key) }
            try encode(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = Node(.object([]))
            add(key, child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node(.array([]))
            add(key, child)
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node(.value(.object([])))
            add(SuperKey.key, child)
            return JSONValueEncoder(codingPath: codingPath + [SuperKey.key], node: child)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Node(.value(.object([])))
            add(key, child)
            return JSONValueEncoder(codingPath: codingPath + [key], node: child)
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        var count: Int {
            guard case .array(let elements) = node.content else { return 0 }
            return elements.count
        }

        private func append(_ child: Node) {
            guard case .array(var elements) = node.content else { return }
            // The node lets go of its elements, so they grow in place: copying
            // them at each append made encoding an array of 10,000 quadratic.
            node.content = .value(.null)
            elements.append(child)
            node.content = .array(elements)
        }

        mutating func encodeNil() throws { append(Node(.value(.null))) }
        mutating func encode(_ value: Bool) throws { append(Node(.value(.bool(value)))) }
        mutating func encode(_ value: String) throws { append(Node(.value(.string(value)))) }
        mutating func encode(_ value: Int) throws { append(Node(.value(.number(value)))) }
        mutating func encode(_ value: Double) throws { append(Node(.value(.number(value)))) }
        mutating func encode(_ value: Int8) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Int16) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Int32) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Int64) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt8) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt16) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt32) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: UInt64) throws { append(Node(.value(.number(String(value))))) }
        mutating func encode(_ value: Float) throws { append(Node(.value(.number(Double(value))))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            append(try JSONValueEncoder.encode(value, at: codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = Node(.object([]))
            append(child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node(.array([]))
            append(child)
            return UnkeyedContainer(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node(.value(.object([])))
            append(child)
            return JSONValueEncoder(codingPath: codingPath, node: child)
        }
    }

    struct SingleValueContainer: SingleValueEncodingContainer {
        let encoder: JSONValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.set(.null) }
        mutating func encode(_ value: Bool) throws { encoder.set(.bool(value)) }
        mutating func encode(_ value: String) throws { encoder.set(.string(value)) }
        mutating func encode(_ value: Int) throws { encoder.set(.number(value)) }
        mutating func encode(_ value: Double) throws { encoder.set(.number(value)) }
        mutating func encode(_ value: Int8) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: Int16) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: Int32) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: Int64) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: UInt) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: UInt8) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: UInt16) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: UInt32) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: UInt64) throws { encoder.set(.number(String(value))) }
        mutating func encode(_ value: Float) throws { encoder.set(.number(Double(value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.set(try JSONValueEncoder.encode(value, at: codingPath))
        }
    }
}

/// The key under which `superEncoder()` writes, as Foundation's encoder names it.
private struct SuperKey: CodingKey {
    static let key = SuperKey(stringValue: "super")

    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
