extension ResourceConfig {
    /// The valid names the resources array declares, even for resources with other problems.
    static func declaredNames(_ value: JSONValue?) -> Set<String> {
        guard case .array(let elements) = value else { return [] }
        return Set(
            elements.compactMap {
                guard case .string(let name) = $0["name"], ConfigLoader.isValidName(name) else { return nil }
                return name
            })
    }

    /// Reports each URL that reads a resource not `declared`, and each cycle of
    /// dependencies (docs/configuration.md#dependent-resources).
    static func checkDependencies(
        _ resources: [(String, ResourceConfig)], declared: Set<String>, in context: ConfigContext
    ) {
        let reader = context.reader
        let byName = Dictionary(uniqueKeysWithValues: resources.map { ($0.1.name, $0.1) })
        for (resourcePath, resource) in resources {
            for dependency in resource.url.dependencies where !declared.contains(dependency.resource) {
                reader.report("\(resourcePath).url", "refers to unknown resource \"\(dependency.resource)\"")
            }
        }
        // Depth-first search; each cycle is reported once, at its first resource in file order.
        var reported = Set<String>()
        for (resourcePath, resource) in resources where !reported.contains(resource.name) {
            if let cycle = Self.cycle(from: resource.name, byName) {
                reported.formUnion(cycle)
                reader.report(
                    "\(resourcePath).url", "dependency cycle: \((cycle + [cycle[0]]).joined(separator: " → "))")
            }
        }
    }

    /// Resources of one scope share one budget: two different ones are a mistake.
    static func checkBudgets(_ resources: [(String, ResourceConfig)], in context: ConfigContext) {
        let reader = context.reader
        var first: [String: (path: String, budget: RateLimitSettings.Budget)] = [:]
        for (resourcePath, resource) in resources {
            guard let budget = resource.settings.rateLimit.budget else { continue }
            let scope = resource.rateLimitScope
            guard let earlier = first[scope] else {
                first[scope] = (resourcePath, budget)
                continue
            }
            if earlier.budget != budget {
                reader.report(
                    "\(resourcePath).rateLimit",
                    "differs from the budget of \(earlier.path) in the same scope \"\(scope)\" "
                        + "(\(earlier.budget.requests) per \(DurationText.format(earlier.budget.per)), "
                        + "burst \(earlier.budget.burst)); resources of one scope share one budget: "
                        + "give them the same, or set \"scope\"")
            }
        }
    }

    /// The cycle of dependencies through `start`, from `start`, if any.
    private static func cycle(from start: String, _ byName: [String: ResourceConfig]) -> [String]? {
        func visit(_ name: String, _ trail: [String]) -> [String]? {
            for next in byName[name]?.dependencies ?? [] {
                if next == start { return trail }
                if trail.contains(next) { continue }
                if let found = visit(next, trail + [next]) { return found }
            }
            return nil
        }
        return visit(start, [start])
    }
}
