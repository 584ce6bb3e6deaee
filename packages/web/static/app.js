// The web view's page (docs/decisions/0360-web-view.md). Hand-written, no build step. Everything the
// server sends comes from a session log or a job — text a model, a tool or a repository wrote — so it is
// only ever put on the page as text (`el` makes text nodes; nothing here assigns innerHTML).

const main = document.getElementById('main')
const live = document.getElementById('live')
let stream

/** An element with attributes and children; a string child becomes a text node, never markup. */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (key === 'class') node.className = value
    else if (key === 'onclick') node.addEventListener('click', value)
    else node.setAttribute(key, String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue
    node.append(
      typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child,
    )
  }
  return node
}

const sessionHref = (id) => `#/session/${encodeURIComponent(id)}`
const jobHref = (id) => `#/job/${encodeURIComponent(id)}`
const shortId = (id) => (id.length > 12 ? id.slice(0, 12) : id)
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '')
const tokens = (n) =>
  n < 1000 ? String(n) : n < 1e6 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1e6).toFixed(1)}M`
const cost = (usd) =>
  usd === undefined || usd === null ? 'n/a' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`
const duration = (ms) =>
  ms < 60000
    ? `${(Math.max(0, ms) / 1000).toFixed(1)}s`
    : `${Math.floor(ms / 60000)}m ${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}s`

function show(...nodes) {
  main.replaceChildren(...nodes.flat().filter((node) => node !== null && node !== undefined))
}

/** Follows `url` (server-sent events), calling `draw` with each message; one stream at a time. */
function follow(url, draw) {
  if (stream) stream.close()
  stream = new EventSource(url)
  stream.onopen = () => live.classList.add('on')
  stream.onerror = () => live.classList.remove('on')
  stream.onmessage = (message) => draw(JSON.parse(message.data))
}

// ── sessions ──────────────────────────────────────────────────────────────────────────────────────────

function drawSessions(list) {
  if (list.error) return show(el('p', { class: 'notice error' }, list.error))
  const rows = list.map((s) =>
    el(
      'tr',
      { 'data-session': s.id },
      el('td', { class: 'mono' }, el('a', { href: sessionHref(s.id) }, shortId(s.id))),
      el('td', {}, when(s.lastTime ?? s.createdAt)),
      el('td', {}, String(s.turns)),
      el('td', { class: 'mono' }, s.model ?? '(no model yet)'),
      el('td', {}, s.firstPrompt ?? '', origin(s)),
      el('td', { class: 'mono dim' }, s.cwd),
    ),
  )
  show(
    el('h1', {}, 'Sessions'),
    list.length === 0
      ? el('p', { class: 'dim' }, 'no sessions')
      : el(
          'table',
          { class: 'list', id: 'sessions' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ['id', 'last activity', 'turns', 'model', 'first prompt', 'folder'].map((h) => el('th', {}, h)),
            ),
          ),
          el('tbody', {}, rows),
        ),
  )
}

/** A fork's or a subagent's parent, linked (as `tack sessions list` names it). */
function origin(s) {
  if (!s.parentSession) return null
  const what = s.seedLength !== undefined ? 'fork of ' : 'subagent of '
  return el(
    'div',
    { class: 'dim' },
    what,
    el('a', { href: sessionHref(s.parentSession) }, shortId(s.parentSession)),
  )
}

function drawSession(page) {
  if (page.error) return show(el('p', { class: 'notice error' }, page.error))
  const s = page.status
  const meta = el(
    'div',
    { class: 'meta' },
    el('span', {}, 'session ', el('b', { class: 'mono' }, page.id)),
    el('span', {}, 'model ', el('b', {}, s.model)),
    el('span', {}, 'tokens ', el('b', {}, `${tokens(s.inputTokens)} in / ${tokens(s.outputTokens)} out`)),
    el('span', {}, 'cost ', el('b', {}, cost(s.cost))),
    el(
      'span',
      {},
      s.running ? el('b', { class: 'badge running' }, 'running') : el('span', { class: 'badge' }, 'idle'),
    ),
    el('span', { class: 'mono' }, page.cwd),
    page.parentSession ? origin(page) : null,
  )
  const todos = page.todos.length
    ? el(
        'ul',
        { class: 'todos' },
        page.todos.map((t) =>
          el(
            'li',
            { class: t.status },
            `${t.status === 'completed' ? '☑' : t.status === 'in_progress' ? '▶' : '☐'} ${t.content}`,
          ),
        ),
      )
    : null
  show(el('h1', {}, 'Session'), meta, todos, el('div', { id: 'conversation' }, page.entries.map(entry)))
}

function entry(e) {
  switch (e.kind) {
    case 'user':
      return el('div', { class: `entry user${e.steering ? ' steering' : ''}` }, e.text)
    case 'assistant':
      return el(
        'div',
        { class: 'entry assistant' },
        e.reasoning ? el('details', {}, el('summary', {}, 'reasoning'), e.reasoning) : null,
        e.text,
      )
    case 'notice':
      return el('div', { class: `entry notice ${e.tone}` }, e.text)
    case 'tool':
      return toolCard(e)
    default:
      return el('div', { class: 'entry dim' }, `(${String(e.kind)})`)
  }
}

function toolCard(t) {
  const status =
    t.approval === 'denied' ? 'denied' : t.approval === 'asked' ? 'waiting for approval' : t.status
  const took = t.endedAt && t.startedAt ? duration(t.endedAt - t.startedAt) : ''
  return el(
    'div',
    { class: 'entry tool', 'data-call': t.callId },
    el(
      'div',
      { class: 'tool-head' },
      el('span', { class: 'tool-name' }, t.name),
      el('span', { class: 'tool-key mono' }, t.keyArg),
      t.progress ? el('span', { class: 'dim' }, t.progress) : null,
      took ? el('span', { class: 'dim' }, took) : null,
      el('span', { class: `badge ${t.status}` }, status),
    ),
    t.inner ? innerCalls(t.inner) : null,
    t.diff ? diffCard(t.diff) : null,
    t.output ? el('pre', { class: 'output' }, t.output) : null,
  )
}

function innerCalls(inner) {
  const earlier = inner.earlier
    ? [el('li', { class: 'dim' }, `${inner.earlier} earlier call(s), ${inner.earlierFailed} failed`)]
    : []
  return el(
    'ul',
    { class: 'inner' },
    earlier,
    inner.shown.map((c) =>
      el(
        'li',
        {},
        el('span', { class: 'mono' }, c.label),
        ' ',
        el('span', { class: `badge ${c.status}` }, c.status),
        c.detail ? el('span', { class: 'dim' }, ` ${c.detail}`) : null,
      ),
    ),
  )
}

/** An applied change: numbered old and new lines, removed red, added green. */
function diffCard(diff) {
  const rows = []
  if (diff.created !== undefined) {
    const lines = diff.created.split('\n')
    if (lines.at(-1) === '') lines.pop()
    for (const [i, line] of lines.entries()) rows.push(diffRow('add', '', i + 1, `+${line}`))
  } else {
    for (const h of diff.hunks) {
      rows.push(
        el(
          'tr',
          { class: 'hunk' },
          el('td', { class: 'n' }),
          el('td', { class: 'n' }),
          el('td', { class: 't' }, `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`),
        ),
      )
      let oldN = h.oldStart
      let newN = h.newStart
      for (const line of h.lines) {
        if (line.startsWith('-')) rows.push(diffRow('del', oldN++, '', line))
        else if (line.startsWith('+')) rows.push(diffRow('add', '', newN++, line))
        else if (line.startsWith('\\')) rows.push(diffRow('', '', '', line))
        else rows.push(diffRow('', oldN++, newN++, line))
      }
    }
  }
  return el(
    'div',
    { class: 'diff' },
    el('div', { class: 'diff-path mono' }, diff.path),
    el('table', { class: 'mono' }, el('tbody', {}, rows)),
  )
}

function diffRow(kind, oldN, newN, text) {
  return el(
    'tr',
    { class: kind },
    el('td', { class: 'n' }, String(oldN)),
    el('td', { class: 'n' }, String(newN)),
    el('td', { class: 't' }, text),
  )
}

/** A unified diff's text (a job's workspace diff) as the same kind of card. */
function unifiedDiff(text) {
  const rows = text.split('\n').map((line) => {
    const kind =
      line.startsWith('+') && !line.startsWith('+++')
        ? 'add'
        : line.startsWith('-') && !line.startsWith('---')
          ? 'del'
          : line.startsWith('@@')
            ? 'hunk'
            : ''
    return el('tr', { class: kind }, el('td', { class: 't' }, line))
  })
  return el('div', { class: 'diff panel' }, el('table', { class: 'mono' }, el('tbody', {}, rows)))
}

// ── jobs ─────────────────────────────────────────────────────────────────────────────────────────────

function notConnected() {
  return el(
    'div',
    { class: 'not-connected', id: 'jobs-not-connected' },
    'Jobs are not connected: this tack serve has no fleet database (plugins.store.url / TACK_STORE_URL naming PostgreSQL), so there is no job table to show.',
  )
}

function drawJobs(answer) {
  if (answer.error) return show(el('p', { class: 'notice error' }, answer.error))
  if (!answer.connected) return show(el('h1', {}, 'Jobs'), notConnected())
  const rows = answer.jobs.map((j) =>
    el(
      'tr',
      { 'data-job': j.id },
      el('td', { class: 'mono' }, el('a', { href: jobHref(j.id) }, shortId(j.id))),
      el('td', {}, el('span', { class: `badge ${j.state}` }, j.state)),
      el('td', {}, j.task),
      el('td', { class: 'mono' }, j.ref ? `${j.repo} @ ${j.ref}` : j.repo),
      el('td', {}, j.attempt ? String(j.attempt) : ''),
      el('td', { class: 'mono' }, j.worker ?? ''),
      el(
        'td',
        { class: 'mono' },
        j.sessionId ? el('a', { href: sessionHref(j.sessionId) }, shortId(j.sessionId)) : '',
      ),
      el('td', {}, j.costUsd === undefined ? '' : cost(j.costUsd)),
      el('td', {}, when(j.updatedAt ?? j.createdAt)),
    ),
  )
  show(
    el('h1', {}, 'Jobs'),
    answer.jobs.length === 0
      ? el('p', { class: 'dim' }, 'no jobs')
      : el(
          'table',
          { class: 'list', id: 'jobs' },
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              ['id', 'state', 'task', 'repository', 'attempt', 'worker', 'session', 'cost', 'updated'].map(
                (h) => el('th', {}, h),
              ),
            ),
          ),
          el('tbody', {}, rows),
        ),
  )
}

async function act(id, action) {
  const res = await fetch(`/api/jobs/${encodeURIComponent(id)}/${action}`, {
    method: 'POST',
    headers: { 'x-tack-action': '1' },
  })
  const body = await res.json().catch(() => ({}))
  if (!res.ok) alert(`${action} failed: ${body.error ?? res.status}`)
}

function drawJob(j) {
  if (j.error) return show(el('p', { class: 'notice error' }, j.error))
  const usage = j.usage ? `${tokens(j.usage.inputTokens)} in / ${tokens(j.usage.outputTokens)} out` : 'n/a'
  show(
    el('h1', {}, 'Job'),
    el(
      'div',
      { class: 'meta' },
      el('span', {}, 'job ', el('b', { class: 'mono' }, j.id)),
      el('span', { class: `badge ${j.state}` }, j.state),
      el('span', {}, 'repository ', el('b', { class: 'mono' }, j.ref ? `${j.repo} @ ${j.ref}` : j.repo)),
      el('span', {}, 'model ', el('b', {}, j.model ?? 'default')),
      el('span', {}, 'usage ', el('b', {}, usage)),
      el('span', {}, 'cost ', el('b', {}, cost(j.costUsd))),
    ),
    el('div', { class: 'panel' }, j.task),
    el(
      'div',
      { class: 'actions' },
      el(
        'button',
        { onclick: () => act(j.id, 'cancel'), disabled: !(j.state === 'queued' || j.state === 'active') },
        'Cancel',
      ),
      el(
        'button',
        { onclick: () => act(j.id, 'retry'), disabled: !(j.state === 'failed' || j.state === 'cancelled') },
        'Retry',
      ),
    ),
    el('h1', {}, 'Attempts'),
    el(
      'ul',
      { id: 'attempts' },
      j.attempts.map((a) =>
        el(
          'li',
          {},
          `#${a.attempt} `,
          a.outcome ? el('span', { class: `badge ${a.outcome}` }, a.outcome) : '',
          ' ',
          a.sessionId ? el('a', { href: sessionHref(a.sessionId) }, shortId(a.sessionId)) : '',
          a.worker ? ` on ${a.worker}` : '',
          a.reason ? ` — ${a.reason}` : '',
        ),
      ),
    ),
    j.reason ? el('p', { class: 'notice error' }, j.reason) : null,
    j.exitReason ? el('p', {}, 'exit: ', el('b', {}, j.exitReason)) : null,
    j.finalAnswer ? el('div', { class: 'panel' }, j.finalAnswer) : null,
    j.diff ? [el('h1', {}, 'Diff'), unifiedDiff(j.diff)] : el('p', { class: 'dim' }, 'no diff'),
  )
}

// ── routing ──────────────────────────────────────────────────────────────────────────────────────────

function route() {
  const hash = location.hash || '#/'
  const [, page, rawId] = /^#\/([a-z]*)\/?(.*)$/.exec(hash) ?? []
  const id = rawId ? decodeURIComponent(rawId) : ''
  for (const a of document.querySelectorAll('nav a'))
    a.classList.toggle('current', a.dataset.nav === (page === 'job' || page === 'jobs' ? 'jobs' : 'sessions'))
  show(el('p', { class: 'dim' }, 'loading…'))
  if (page === 'session' && id) follow(`/api/sessions/${encodeURIComponent(id)}/stream`, drawSession)
  else if (page === 'jobs') follow('/api/jobs/stream', drawJobs)
  else if (page === 'job' && id) follow(`/api/jobs/${encodeURIComponent(id)}/stream`, drawJob)
  else follow('/api/sessions/stream', drawSessions)
}

window.addEventListener('hashchange', route)
route()
