extension StatusPage {
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

          // As StatusPage.misfitTitle.
          const misfitTitle = (misfit) => `a value does not fit column ${misfit.table}.${misfit.column} ` +
            `and is stored as NULL (key ${misfit.key}, ${misfit.pointer})`;

          // As StatusPage.badges.
          function badges(status) {
            const list = status.slow ? [['slow', 'slow']] : [];
            const byState = { waiting: 'rate limited', offline: 'paused', failed: 'needs a refresh' }[status.state];
            if (byState) list.push([status.state, byState]);
            const misfit = status.columns && status.columns.misfit;
            if (misfit) list.push(['misfit', 'misfit', misfitTitle(misfit)]);
            return list.map(([kind, text, title]) => {
              const badge = element('span', 'badge ' + kind, text);
              if (title) badge.title = title;
              return badge;
            });
          }

          // As StatusPage.columnsLink: after the name, the link to a resource's typed columns.
          function columnsLink(status) {
            if (!status.columns) return [];
            const link = element('a', 'columns', 'columns');
            link.href = resourcePath(status.name, 'columns');
            return [' ', link];
          }

          function fill(tr, status) {
            tr.dataset.state = status.state;
            cell(tr, 'name').replaceChildren(status.name, ...columnsLink(status));
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
