extension StatusPage {
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
        td.name a.columns { margin-left: .25rem; font-size: .8rem; font-weight: 400; color: var(--blue); }
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
        .retrying, .waiting, .slow, .misfit { background: var(--amber-bg); color: var(--amber); }
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
}
