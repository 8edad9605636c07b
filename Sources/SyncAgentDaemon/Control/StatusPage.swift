import Crypto
import Foundation
import Store
import SyncCore

/// The status page at `/` of the HTTP listener (docs/observability.md#the-status-page): one
/// self-contained HTML page, with no external resources, that shows the agent and a row per
/// resource. It is rendered whole here, so it reads without JavaScript; its script follows
/// `GET /v1/events` to keep the rows current, draws each row's recent sync durations from
/// `GET /v1/resources/NAME/runs`, and, when the listener takes control requests, refreshes a
/// resource with the bearer token typed into the page.
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
            "<td class=\"name\" data-label=\"Resource\">\(name)</td>",
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

    /// The badges of `status`: `slow`, and by its state `rate limited` (waiting),
    /// `paused` (offline) or `needs a refresh` (failed: not polled until then).
    static func badges(for status: ResourceStatus) -> String {
        var badges: [(kind: String, text: String)] = []
        if status.slow { badges.append(("slow", "slow")) }
        switch status.state {
        case .waiting: badges.append(("waiting", "rate limited"))
        case .offline: badges.append(("offline", "paused"))
        case .failed: badges.append(("failed", "needs a refresh"))
        case .idle, .syncing, .retrying: break
        }
        return badges.map { "<span class=\"badge \($0.kind)\">\($0.text)</span>" }.joined()
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

    /// The page's style: a table, and below 700 px a card per resource.
    static let style = #"""

        :root {
          color-scheme: light dark;
          --bg: #f6f7f9; --card: #fff; --text: #1d232a; --muted: #5d6875; --line: #dde2e8;
          --green: #1a7f37; --green-bg: #dcf5e3; --blue: #0b5cad; --blue-bg: #dbeafe;
          --amber: #8a5a00; --amber-bg: #fdf0c8; --grey: #4b5563; --grey-bg: #e5e7eb;
          --red: #b42318; --red-bg: #fde2df;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #111418; --card: #1a1f25; --text: #e6e9ed; --muted: #9aa5b1; --line: #2c333b;
            --green: #6fdd8b; --green-bg: #12361f; --blue: #8cc2ff; --blue-bg: #132f4f;
            --amber: #f5c451; --amber-bg: #3b2d0a; --grey: #c1c7cf; --grey-bg: #30363d;
            --red: #ff8f85; --red-bg: #47171a;
          }
        }
        * { box-sizing: border-box; }
        [hidden] { display: none !important; }
        html { -webkit-text-size-adjust: 100%; }
        body {
          margin: 0; padding: 1rem; background: var(--bg); color: var(--text); line-height: 1.45;
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        }
        header, main, footer { max-width: 80rem; margin: 0 auto; }
        h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
        .agent { margin: 0 0 1rem; color: var(--muted); }
        .agent span, .agent time { color: var(--text); }
        #agent-online.online { color: var(--green); font-weight: 600; }
        #agent-online.offline { color: var(--grey); font-weight: 600; }
        #connection { margin-left: .5rem; font-size: .85rem; color: var(--muted); }
        body[data-live="true"] #connection { color: var(--green); }
        .note { padding: .5rem .75rem; background: var(--amber-bg); color: var(--amber); border-radius: 6px; }
        .control { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0 0 .5rem; }
        .control input {
          font: inherit; padding: .3rem .5rem; min-width: 0; flex: 1 1 14rem; max-width: 24rem;
          border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--text);
        }
        .hint { color: var(--muted); font-size: .85rem; }
        #message { min-height: 1.45em; margin: 0 0 .5rem; overflow-wrap: anywhere; }
        #message[data-kind="error"] { color: var(--red); }
        .table { overflow-x: auto; }
        table { width: 100%; border-collapse: collapse; background: var(--card); border-radius: 8px; }
        th, td { text-align: left; vertical-align: middle; padding: .45rem .6rem; }
        th, td { border-bottom: 1px solid var(--line); }
        th {
          font-size: .8rem; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: .03em;
          white-space: nowrap;
        }
        td.name { font-weight: 600; overflow-wrap: break-word; }
        th.items, td.items { text-align: right; font-variant-numeric: tabular-nums; }
        td.error { color: var(--red); max-width: 28rem; overflow-wrap: anywhere; font-size: .9rem; }
        td.next-sync, td.last-success { white-space: nowrap; }
        .pill, .badge {
          display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 600;
          background: var(--grey-bg); color: var(--grey);
        }
        .badge { margin: .1rem .25rem .1rem 0; white-space: nowrap; }
        .idle { background: var(--green-bg); color: var(--green); }
        .syncing { background: var(--blue-bg); color: var(--blue); }
        .retrying, .waiting, .slow { background: var(--amber-bg); color: var(--amber); }
        .failed { background: var(--red-bg); color: var(--red); }
        .sparkline { display: block; overflow: visible; }
        .sparkline polyline { fill: none; stroke: var(--blue); stroke-width: 1.5; stroke-linejoin: round; }
        .sparkline circle.ok { fill: var(--blue); }
        .sparkline circle.failed { fill: var(--red); }
        .refresh {
          font: inherit; padding: .25rem .75rem; border: 1px solid var(--line); border-radius: 6px;
          background: var(--bg); color: var(--text); cursor: pointer;
        }
        .refresh:disabled { opacity: .55; cursor: progress; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        footer { margin-top: 1rem; font-size: .85rem; color: var(--muted); }
        footer a { color: inherit; }
        @media (max-width: 700px) {
          body { padding: .75rem; }
          .table { overflow: visible; }
          table, tbody, tr, td { display: block; width: auto; background: none; }
          thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
          tr {
            background: var(--card); border: 1px solid var(--line); border-radius: 8px;
            padding: .5rem .75rem; margin-bottom: .75rem;
          }
          td {
            display: grid; grid-template-columns: 7rem minmax(0, 1fr); gap: .5rem; align-items: baseline;
            justify-items: start;
            padding: .2rem 0; border: 0; max-width: none; min-width: 0; overflow-wrap: anywhere;
          }
          td::before { content: attr(data-label); color: var(--muted); font-size: .85rem; font-weight: 400; }
          td.name, td.badges, td.actions, #empty td { display: block; }
          td.name { font-size: 1.05rem; padding-bottom: .3rem; }
          td.name::before, td.badges::before, td.actions::before, #empty td::before { content: none; }
          td.items { text-align: left; }
          td.badges { padding-left: 7.5rem; }
          td:empty { display: none; }
          td.actions { padding-top: .4rem; }
          td.actions:has(> button[hidden]) { display: none; }
        }

        """#

    /// The page's script: live rows from `GET /v1/events`, relative times kept current,
    /// sparklines from the runs, the header from `GET /v1/status`, and the Refresh buttons.
    static let script = #"""

        (() => {
          'use strict';
          const body = document.body;
          const tbody = document.querySelector('#resources tbody');
          const template = document.getElementById('row-template');
          const sparklineTemplate = document.getElementById('sparkline-template');
          const message = document.getElementById('message');
          const tokenForm = document.getElementById('control');
          const tokenInput = document.getElementById('token');
          const tokenKey = 'sync-agent-token';
          const connection = document.getElementById('connection');
          const spark = { width: 120, height: 24, pad: 3, runs: 20 };
          // The server's clock when it rendered the page, against this browser's.
          const skew = (Date.parse(body.dataset.now) || Date.now()) - Date.now();
          const now = () => Date.now() + skew;
          // Each resource's last state and lastAttemptAt: a new attempt, or the end of a sync, redraws its sparkline.
          const statuses = new Map();
          const runRequests = new Map();

          const rows = () => [...tbody.rows].filter((tr) => tr.dataset.resource !== undefined);
          const rowFor = (name) => rows().find((tr) => tr.dataset.resource === name);
          const cell = (tr, name) => tr.querySelector('td.' + name);
          const setTitle = (element, title) => (title ? (element.title = title) : element.removeAttribute('title'));
          const resourcePath = (name, rest) => `/v1/resources/${encodeURIComponent(name)}/${rest}`;

          function say(text, kind) {
            message.textContent = text;
            message.dataset.kind = kind || '';
          }

          function element(tag, className, text) {
            const made = document.createElement(tag);
            made.className = className;
            made.textContent = text;
            return made;
          }

          function span(seconds) {
            if (seconds < 60) return seconds + 's';
            if (seconds < 3600) return Math.floor(seconds / 60) + 'm';
            if (seconds < 86400) return Math.floor(seconds / 3600) + 'h';
            return Math.floor(seconds / 86400) + 'd';
          }

          // As StatusPage.relative: "12s ago", "in 5s", "due".
          function relative(time) {
            const delta = Date.parse(time.dateTime) - now();
            if (time.dataset.relative === 'past') return span(Math.max(0, Math.floor(-delta / 1000))) + ' ago';
            const seconds = Math.floor(delta / 1000);
            return seconds < 1 ? 'due' : 'in ' + span(seconds);
          }

          function setTime(td, iso, direction, otherwise) {
            if (!iso) return void (td.textContent = otherwise);
            const time = document.createElement('time');
            time.dateTime = time.title = iso;
            time.dataset.relative = direction;
            time.textContent = relative(time);
            td.replaceChildren(time);
          }

          // As StatusPage.badges.
          function badges(status) {
            const list = status.slow ? [['slow', 'slow']] : [];
            const byState = { waiting: 'rate limited', offline: 'paused', failed: 'needs a refresh' }[status.state];
            if (byState) list.push([status.state, byState]);
            return list.map(([kind, text]) => element('span', 'badge ' + kind, text));
          }

          function fill(tr, status) {
            tr.dataset.state = status.state;
            cell(tr, 'name').textContent = status.name;
            const state = cell(tr, 'state');
            state.replaceChildren(element('span', 'pill ' + status.state, status.state));
            setTitle(state, status.message);
            cell(tr, 'badges').replaceChildren(...badges(status));
            setTime(cell(tr, 'last-success'), status.lastSuccessAt, 'past', 'never');
            setTime(cell(tr, 'next-sync'), status.nextSyncAt, 'future', '\u2014');
            cell(tr, 'items').textContent = String(status.items || 0);
            const error = cell(tr, 'error');
            const lastError = status.lastError;
            error.textContent = lastError ? lastError.message : '';
            setTitle(error, lastError ? lastError.kind + (lastError.status ? ', HTTP ' + lastError.status : '') : '');
          }

          function newRow(name) {
            const tr = template.content.firstElementChild.cloneNode(true);
            tr.dataset.resource = name;
            const button = tr.querySelector('button.refresh');
            if (button) {
              button.dataset.resource = name;
              button.hidden = false;
            }
            document.getElementById('empty')?.remove();
            tbody.append(tr);
            return tr;
          }

          function applyResource(status) {
            const before = statuses.get(status.name);
            const lastAttemptAt = status.lastAttemptAt || null;
            statuses.set(status.name, { state: status.state, lastAttemptAt });
            const existing = rowFor(status.name);
            fill(existing || newRow(status.name), status);
            const ran = before
              ? before.lastAttemptAt !== lastAttemptAt || (before.state === 'syncing' && status.state !== 'syncing')
              : !existing && lastAttemptAt !== null;
            if (ran) loadRuns(status.name);
          }

          // As StatusPage.sparkline: runs oldest first, failed runs as red dots.
          function drawSparkline(td, runs) {
            td.replaceChildren();
            if (runs.length === 0) return;
            const { width, height, pad } = spark;
            const tenth = (value) => Math.round(value * 10) / 10;
            const longest = Math.max(1, ...runs.map((run) => run.ms));
            const points = runs.map((run, index) => [
              tenth(runs.length === 1 ? width / 2 : pad + (index * (width - 2 * pad)) / (runs.length - 1)),
              tenth(pad + (1 - Math.max(run.ms, 0) / longest) * (height - 2 * pad)),
            ]);
            const failures = runs.filter((run) => run.failed).length;
            const syncs = runs.length === 1 ? '1 recent sync' : runs.length + ' recent syncs';
            const label = `${syncs}, newest ${runs[runs.length - 1].ms} ms, longest ${longest} ms` +
              (failures > 0 ? `, ${failures} failed` : '');
            // The SVG comes from a template, so the page names no namespace URL.
            const svg = sparklineTemplate.content.firstElementChild.cloneNode(true);
            svg.setAttribute('aria-label', label);
            svg.querySelector('title').textContent = label;
            svg.querySelector('polyline').setAttribute('points', points.map((point) => point.join(',')).join(' '));
            runs.forEach((run, index) => {
              if (!run.failed && runs.length > 1) return;
              const dot = document.createElementNS(svg.namespaceURI, 'circle');
              const [cx, cy] = points[index];
              const attributes = { class: run.failed ? 'failed' : 'ok', cx, cy, r: 2.5 };
              for (const [key, value] of Object.entries(attributes)) dot.setAttribute(key, String(value));
              svg.append(dot);
            });
            td.append(svg);
          }

          async function loadRuns(name) {
            const ticket = (runRequests.get(name) || 0) + 1;
            runRequests.set(name, ticket);
            try {
              const url = resourcePath(name, `runs?limit=${spark.runs}`);
              const response = await fetch(url, { headers: { Accept: 'application/json' } });
              if (!response.ok) return;
              const answer = await response.json();
              const tr = rowFor(name);
              if (runRequests.get(name) !== ticket || !tr) return;
              // The runs come newest first; the sparkline draws the oldest left.
              const runs = (answer.runs || [])
                .filter((run) => typeof run.durationMs === 'number')
                .slice(0, spark.runs)
                .reverse()
                .map((run) => ({ ms: run.durationMs, failed: run.outcome === 'failed' || run.outcome === 'gaveUp' }));
              drawSparkline(cell(tr, 'spark'), runs);
            } catch { /* the resource's next change tries again */ }
          }

          function showAgent(agent) {
            document.getElementById('agent-version').textContent = agent.version;
            document.getElementById('agent-pid').textContent = String(agent.pid);
            const online = document.getElementById('agent-online');
            online.textContent = online.className = agent.online ? 'online' : 'offline';
            const started = document.getElementById('agent-started');
            if (agent.startedAt && started.dateTime !== agent.startedAt) {
              started.dateTime = started.title = agent.startedAt;
              started.textContent = agent.startedAt.slice(0, 19).replace('T', ' ') + ' UTC';
            }
          }

          async function loadStatus() {
            try {
              const response = await fetch('/v1/status', { headers: { Accept: 'application/json' } });
              if (!response.ok) return;
              const answer = await response.json();
              if (answer.agent) showAgent(answer.agent);
              const resources = answer.resources || [];
              resources.forEach(applyResource);
              const names = new Set(resources.map((status) => status.name));
              for (const tr of rows().filter((row) => !names.has(row.dataset.resource))) {
                statuses.delete(tr.dataset.resource);
                tr.remove();
              }
            } catch { /* the next poll tries again */ }
          }

          let opened = false;
          function connect() {
            const source = new EventSource('/v1/events');
            source.addEventListener('open', () => {
              body.dataset.live = 'true';
              connection.textContent = 'live';
              // Events only tell of resources: a reconnection also reads the agent again.
              if (opened) loadStatus();
              opened = true;
            });
            source.addEventListener('resource', (event) => {
              try { applyResource(JSON.parse(event.data)); } catch { /* a malformed event changes nothing */ }
            });
            source.addEventListener('error', () => {
              body.dataset.live = 'false';
              connection.textContent = 'reconnecting\u2026';
              // The browser reconnects by itself, unless the stream failed for good.
              if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
            });
          }

          // sessionStorage throws where storage is disabled: the token then lives in the input only.
          const storedToken = () => { try { return sessionStorage.getItem(tokenKey) || ''; } catch { return ''; } };
          const storeToken = (token) => { try { sessionStorage.setItem(tokenKey, token); } catch { /* input only */ } };
          const forgetToken = () => { try { sessionStorage.removeItem(tokenKey); } catch { /* nothing stored */ } };

          async function refresh(button) {
            const name = button.dataset.resource;
            let token = tokenInput.value.trim();
            if (token) storeToken(token);
            else token = storedToken();
            if (!token) {
              say("enter the agent's token to refresh", 'error');
              return tokenInput.focus();
            }
            button.disabled = true;
            say(name + ': refreshing\u2026');
            try {
              const response = await fetch(resourcePath(name, 'refresh'), {
                method: 'POST',
                headers: { Authorization: 'Bearer ' + token, Accept: 'application/json' },
              });
              const answer = await response.json().catch(() => null);
              if (response.status === 200 && answer) {
                const error = answer.error ? ' \u2014 ' + answer.error.message : '';
                say(`${answer.resource}: ${answer.outcome} (${answer.items} items, ${answer.durationMs} ms)${error}`,
                  answer.error ? 'error' : 'ok');
                loadRuns(name);
              } else if (response.status === 401) {
                forgetToken();
                tokenInput.value = '';
                tokenInput.focus();
                say('the token was refused', 'error');
              } else {
                say(answer?.error?.message || `${name}: the agent answered HTTP ${response.status}`, 'error');
              }
            } catch {
              say(name + ': the agent did not answer', 'error');
            } finally {
              button.disabled = false;
            }
          }

          for (const tr of rows()) {
            const lastAttemptAt = tr.dataset.lastAttempt || null;
            statuses.set(tr.dataset.resource, { state: tr.dataset.state, lastAttemptAt });
          }
          // Without JavaScript these stay hidden: a plain form cannot send the bearer token.
          for (const button of document.querySelectorAll('button.refresh')) button.hidden = false;
          if (tokenForm) {
            tokenForm.hidden = false;
            tokenForm.addEventListener('submit', (event) => {
              event.preventDefault();
              const token = tokenInput.value.trim();
              if (!token) return;
              storeToken(token);
              say('the token is kept for this tab');
            });
          }
          tbody.addEventListener('click', (event) => {
            const button = event.target.closest('button.refresh');
            if (button && !button.disabled) refresh(button);
          });
          connection.hidden = false;
          setInterval(() => {
            for (const time of document.querySelectorAll('time[data-relative]')) time.textContent = relative(time);
          }, 1000);
          setInterval(loadStatus, 30000);
          connect();
        })();

        """#
}
