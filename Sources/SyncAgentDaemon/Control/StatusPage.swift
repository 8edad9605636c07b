import Crypto
import Foundation
import Store
import SyncCore

/// The status page at `/` of the HTTP listener (docs/observability.md#the-status-page): one
/// self-contained HTML page, with no external resources, that shows the agent and a row per
/// resource (a resource with typed columns links to them, `GET /v1/resources/NAME/columns`,
/// and shows a `misfit` badge while a value does not fit). It is rendered whole here, so it
/// reads without JavaScript; its script follows `GET /v1/events` to keep the rows current,
/// draws each row's recent sync durations from `GET /v1/resources/NAME/runs`, and, when the
/// listener takes control requests, refreshes a resource with the bearer token typed into
/// the page.
enum StatusPage {
    /// What the page shows.
    struct Input: Sendable {
        /// The running agent.
        var agent: AgentInfo
        /// Every resource, in configuration order.
        var resources: [ResourceStatus]
        /// Recent sync durations per resource, in milliseconds, oldest first (at most 20), with whether each failed.
        var durations: [String: [RecentRun]]
        /// Whether the listener takes control requests (a bearer token): shows the Refresh buttons.
        var control: Bool
        /// Now, for "12s ago".
        var now: Date
    }

    /// One recent sync of a resource, as its sparkline draws it.
    struct RecentRun: Sendable, Hashable {
        /// How long it took.
        var milliseconds: Int
        /// Whether it failed (outcome `failed` or `gaveUp`): drawn as a red dot.
        var failed: Bool
    }

    /// The `Content-Security-Policy` to serve the page with: its own script
    /// and style only (by their SHA-256, so no other inline script or style
    /// runs, whatever a page might carry), requests to the listener itself,
    /// and the empty `data:` icon that spares the browser a request for `/favicon.ico`.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(sourceHash(script))'; style-src '\(sourceHash(style))'; "
        + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// A CSP hash source for an inline element's text: `sha256-BASE64`.
    static func sourceHash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }

    /// The most recent syncs a sparkline draws.
    static let sparklineRuns = 20

    /// The page's HTML.
    static func render(_ input: Input) -> String {
        let rows = input.resources.map { status in
            row(for: status, runs: input.durations[status.name] ?? [], control: input.control, now: input.now)
        }
        let columns = input.control ? 9 : 8
        let empty = "<tr id=\"empty\"><td colspan=\"\(columns)\">No resources are configured.</td></tr>"
        // The script fills a copy of this row for a resource the page does not show yet.
        let blank = ResourceStatus(name: "", state: .idle)
        let template = row(for: blank, runs: [], control: input.control, now: input.now)
        let actions = input.control ? "<th class=\"actions\"><span class=\"visually-hidden\">Actions</span></th>" : ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <meta name="referrer" content="no-referrer">
            <title>sync-agent</title>
            <link rel="icon" href="data:,">
            <style>\(style)</style>
            </head>
            <body data-live="false" data-now="\(Timestamp.string(from: input.now))">
            \(header(input.agent))
            <main>
            <noscript><p class="note">This page does not update itself without JavaScript: \
            reload it to see changes.</p></noscript>
            \(input.control ? tokenBar : "")
            <p id="message" role="status"></p>
            <div class="table">
            <table id="resources">
            <thead><tr><th class="name">Resource</th><th class="state">State</th>\
            <th class="badges"><span class="visually-hidden">Notes</span></th>\
            <th class="last-success">Last success</th><th class="next-sync">Next sync</th><th class="items">Items</th>\
            <th class="error">Last error</th><th class="spark">Recent syncs</th>\(actions)</tr></thead>
            <tbody>
            \(rows.isEmpty ? empty : rows.joined(separator: "\n"))
            </tbody>
            </table>
            </div>
            <template id="row-template">\(template)</template>
            <template id="sparkline-template"><svg class="sparkline" viewBox="0 0 120 24" width="120" height="24" \
            role="img"><title></title><polyline/></svg></template>
            </main>
            <footer><a href="/v1/status">/v1/status</a> · <a href="/metrics">/metrics</a></footer>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    /// The page's header: the agent's version, pid, whether it is online, and when it started.
    static func header(_ agent: AgentInfo) -> String {
        let started = Timestamp.string(from: agent.startedAt)
        let online = agent.online ? "online" : "offline"
        return """
            <header>
            <h1>sync-agent</h1>
            <p class="agent">version <span id="agent-version">\(escape(agent.version))</span>
            · pid <span id="agent-pid">\(agent.pid)</span>
            · <span id="agent-online" class="\(online)">\(online)</span>
            · started <time id="agent-started" datetime="\(started)" title="\(started)">\(absolute(started))</time>
            <span id="connection" hidden></span></p>
            </header>
            """
    }

    /// The bar where people type the bearer token of the Refresh buttons; hidden until the script runs.
    static let tokenBar = """
        <form id="control" class="control" hidden>
        <label for="token">Token</label>
        <input id="token" type="password" autocomplete="off" spellcheck="false" placeholder="the agent's bearer token">
        <span class="hint">needed by Refresh; kept in this tab only</span>
        </form>
        """

    /// The table row of `status`; its cells carry the classes the script and tests look for.
    static func row(for status: ResourceStatus, runs: [RecentRun], control: Bool, now: Date) -> String {
        let name = escape(status.name)
        let state = status.state.rawValue
        let lastAttempt = status.lastAttemptAt.map { " data-last-attempt=\"\(Timestamp.string(from: $0))\"" } ?? ""
        let note = status.message.map { " title=\"\(escape($0))\"" } ?? ""
        let error = status.lastError.map { error in
            let title = error.status.map { "\(error.kind.rawValue), HTTP \($0)" } ?? error.kind.rawValue
            return (title: " title=\"\(escape(title))\"", message: escape(error.message))
        }
        var cells = [
            "<td class=\"name\" data-label=\"Resource\">\(name)\(columnsLink(for: status))</td>",
            "<td class=\"state\" data-label=\"State\"\(note)><span class=\"pill \(state)\">\(state)</span></td>",
            "<td class=\"badges\">\(badges(for: status))</td>",
            "<td class=\"last-success\" data-label=\"Last success\">"
                + time(status.lastSuccessAt, future: false, now: now, otherwise: "never") + "</td>",
            "<td class=\"next-sync\" data-label=\"Next sync\">"
                + time(status.nextSyncAt, future: true, now: now, otherwise: "—") + "</td>",
            "<td class=\"items\" data-label=\"Items\">\(status.items)</td>",
            "<td class=\"error\" data-label=\"Last error\"\(error?.title ?? "")>\(error?.message ?? "")</td>",
            "<td class=\"spark\" data-label=\"Recent syncs\">\(sparkline(runs))</td>",
        ]
        if control {
            cells.append(
                "<td class=\"actions\"><button class=\"refresh\" type=\"button\" data-resource=\"\(name)\" hidden>"
                    + "Refresh</button></td>")
        }
        return "<tr data-resource=\"\(name)\" data-state=\"\(state)\"\(lastAttempt)>" + cells.joined() + "</tr>"
    }

    /// For a resource with typed columns, the link to their declaration
    /// (`GET /v1/resources/NAME/columns`), after its name; else nothing. The
    /// script's `columnsLink` makes the same.
    static func columnsLink(for status: ResourceStatus) -> String {
        guard status.columns != nil else { return "" }
        // A resource's name is `[a-z0-9_-]`: the path needs no percent-encoding.
        return " <a class=\"columns\" href=\"/v1/resources/\(escape(status.name))/columns\">columns</a>"
    }

    /// The badges of `status`: `slow`; by its state `rate limited` (waiting),
    /// `paused` (offline) or `needs a refresh` (failed: not polled until then);
    /// and `misfit` while its typed table holds a value that did not fit, with
    /// the value's key and pointer in its title.
    static func badges(for status: ResourceStatus) -> String {
        var badges: [(kind: String, text: String, title: String?)] = []
        if status.slow { badges.append(("slow", "slow", nil)) }
        switch status.state {
        case .waiting: badges.append(("waiting", "rate limited", nil))
        case .offline: badges.append(("offline", "paused", nil))
        case .failed: badges.append(("failed", "needs a refresh", nil))
        case .idle, .syncing, .retrying: break
        }
        if let misfit = status.columns?.misfit { badges.append(("misfit", "misfit", misfitTitle(misfit))) }
        return badges.map { badge in
            let title = badge.title.map { " title=\"\(escape($0))\"" } ?? ""
            return "<span class=\"badge \(badge.kind)\"\(title)>\(badge.text)</span>"
        }.joined()
    }

    /// The title of the `misfit` badge: which column, which record, where in it.
    /// The script's `misfitTitle` says the same.
    static func misfitTitle(_ misfit: ColumnMisfit) -> String {
        "a value does not fit column \(misfit.table).\(misfit.column) and is stored as NULL "
            + "(key \(misfit.key), \(misfit.pointer))"
    }

    /// A `<time>` for `date`, relative to `now` (the script keeps it current), or `otherwise`.
    static func time(_ date: Date?, future: Bool, now: Date, otherwise: String) -> String {
        guard let date else { return otherwise }
        let iso = Timestamp.string(from: date)
        let direction = future ? "future" : "past"
        return "<time datetime=\"\(iso)\" title=\"\(iso)\" data-relative=\"\(direction)\">"
            + relative(date, future: future, now: now) + "</time>"
    }

    /// `12s ago`, `3m ago`, `2h ago`, `4d ago`; for a time to come, `in 5s`, or `due` once it has passed.
    /// The script's `relative` says the same.
    static func relative(_ date: Date, future: Bool, now: Date) -> String {
        if future {
            let seconds = Int(date.timeIntervalSince(now).rounded(.down))
            return seconds < 1 ? "due" : "in \(TimestampText.span(seconds))"
        }
        return "\(TimestampText.span(max(0, Int(now.timeIntervalSince(date).rounded(.down))))) ago"
    }

    /// `2026-11-21 10:00:02 UTC` for the timestamp `2026-11-21T10:00:02.547Z`.
    static func absolute(_ timestamp: String) -> String {
        timestamp.prefix(19).replacingOccurrences(of: "T", with: " ") + " UTC"
    }

    /// An inline SVG of `runs`' durations, oldest left, failed runs as red dots; empty without runs.
    /// The script's `drawSparkline` draws the same.
    static func sparkline(_ runs: [RecentRun]) -> String {
        let runs = Array(runs.suffix(sparklineRuns))
        guard let newest = runs.last else { return "" }
        let (width, height, pad) = (120.0, 24.0, 3.0)
        let longest = max(runs.map(\.milliseconds).max() ?? 0, 1)
        let points = runs.indices.map { index in
            let x = runs.count == 1 ? width / 2 : pad + Double(index) * (width - 2 * pad) / Double(runs.count - 1)
            let share = Double(max(runs[index].milliseconds, 0)) / Double(longest)
            return (x: coordinate(x), y: coordinate(pad + (1 - share) * (height - 2 * pad)))
        }
        let failures = runs.filter(\.failed).count
        let syncs = runs.count == 1 ? "1 recent sync" : "\(runs.count) recent syncs"
        let label =
            "\(syncs), newest \(newest.milliseconds) ms, longest \(longest) ms"
            + (failures > 0 ? ", \(failures) failed" : "")
        let dots = zip(runs, points).filter { run, _ in run.failed || runs.count == 1 }.map { run, point in
            "<circle class=\"\(run.failed ? "failed" : "ok")\" cx=\"\(point.x)\" cy=\"\(point.y)\" r=\"2.5\"/>"
        }
        return "<svg class=\"sparkline\" viewBox=\"0 0 120 24\" width=\"120\" height=\"24\" role=\"img\" "
            + "aria-label=\"\(label)\"><title>\(label)</title>"
            + "<polyline points=\"\(points.map { "\($0.x),\($0.y)" }.joined(separator: " "))\"/>"
            + dots.joined() + "</svg>"
    }

    /// `value` to a tenth, without a trailing `.0`: `12.5`, `3`.
    static func coordinate(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
    }

    /// `text` safe in HTML text and in quoted attributes: `&`, `<`, `>`, `"` and `'` escaped.
    static func escape(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": escaped.append(contentsOf: "&quot;".unicodeScalars)
            case "'": escaped.append(contentsOf: "&#39;".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
