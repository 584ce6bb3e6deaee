// R22–R25: the readers, run as the real `agent-state` binary over fixture folders.
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { countSessions, tmuxLine } from '../src/readers/commands.ts'
import { readEntries } from '../src/readers/snapshots.ts'
import { duration } from '../src/readers/table.ts'

const BIN = join(import.meta.dirname, '..', 'bin', 'agent-state.js')
const HOME = '/home/fixture'

type Fixture = {
  id: string
  state?: string
  tool?: string | null
  beatAgoS?: number
  sinceAgoS?: number
  cwd?: string
  signals?: Record<string, string>
  schema?: number
  host?: string
}
function snapshot(f: Fixture, now = Date.now()): string {
  const signals = Object.fromEntries(
    Object.entries(f.signals ?? {}).map(([k, value]) => [k, { value, at_ms: now }]),
  )
  return `${JSON.stringify({
    schema: f.schema ?? 1,
    session_id: f.id,
    host: f.host ?? 'claude-code',
    version: '2.1.328',
    cwd: f.cwd ?? `${HOME}/project`,
    session_started_ms: now - 600_000,
    state: f.state ?? 'idle',
    tool: f.tool ?? null,
    state_since_ms: now - (f.sinceAgoS ?? 10) * 1000,
    heartbeat_ms: now - (f.beatAgoS ?? 5) * 1000,
    heartbeat_interval_ms: 30_000,
    signals,
  })}\n`
}
function folder(fixtures: Fixture[], extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-state-readers-'))
  for (const f of fixtures) writeFileSync(join(dir, `${f.id}.json`), snapshot(f))
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text)
  return dir
}
const cli = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME, AGENT_STATE_DIR: '', ...env },
    ...(cwd ? { cwd } : {}),
  })

const FIXTURES: Fixture[] = [
  { id: 'fresh-idle-0001', state: 'idle', sinceAgoS: 100 },
  {
    id: 'fresh-perm-0002',
    state: 'permission',
    tool: 'Bash',
    sinceAgoS: 125,
    signals: { draft: '1', context: '43', quota_5h: '12', background: '2', command: 'review' },
  },
  { id: 'fresh-work-0003', state: 'working', sinceAgoS: 3, host: 'tack' },
  { id: 'stale-tool-0004', state: 'tool', tool: 'Read', beatAgoS: 80 },
  { id: 'ended-0005', state: 'ended', beatAgoS: 2 },
]
const TRUNCATED = {
  'trunc-0006.json': '{"schema":1,"session_id":"tr',
  'leftover.json.tmp': '{"half',
  'x.jsonl': '{}\n',
}

describe('R22 R23 status', () => {
  const dir = folder(FIXTURES, TRUNCATED)

  test('text lists live sessions only, permission first, newest first within a group', () => {
    const r = cli(['status', '--dir', dir])
    expect(r.status).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^SESSION\s+HOST\s+STATE\s+FOR\s+BEAT\s+CWD\s+SIGNALS$/)
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'fresh-pe claude permission:Bash',
      'fresh-wo tack working',
      'fresh-id claude idle',
    ])
    expect(lines[1]).toMatch(/ 2m0\ds /)
    expect(lines[1]).toContain('~/project')
    expect(lines[1]).toMatch(/draft cmd=review bg=2 ctx=43% 5h=12%$/)
  })

  test('--all adds stale, ended and unreadable ones, in that order', () => {
    const r = cli(['status', '--all', '--dir', dir])
    const states = r.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s+/)[2])
    expect(states).toEqual(['permission:Bash', 'working', 'idle', 'stale(tool)', 'ended', 'unreadable'])
    expect(r.stdout).not.toContain('leftover')
  })

  test('--json is one line: schema, now_ms and each session with liveness, age and file', () => {
    const r = cli(['status', '--json', '--all', '--dir', dir])
    expect(r.stdout.split('\n')).toHaveLength(2)
    const out = JSON.parse(r.stdout)
    expect(out.schema).toBe(1)
    expect(typeof out.now_ms).toBe('number')
    const by = Object.fromEntries(
      out.sessions.map((s: { session_id?: string; file: string; liveness: string }) => [
        s.session_id ?? s.file,
        s,
      ]),
    )
    expect(by['fresh-idle-0001']).toMatchObject({
      liveness: 'live',
      state: 'idle',
      file: join(dir, 'fresh-idle-0001.json'),
    })
    expect(by['stale-tool-0004'].liveness).toBe('stale')
    expect(by['stale-tool-0004'].age_ms).toBeGreaterThanOrEqual(80_000)
    expect(by['ended-0005'].liveness).toBe('ended')
    expect(by[join(dir, 'trunc-0006.json')]).toEqual({
      liveness: 'unreadable',
      file: join(dir, 'trunc-0006.json'),
    })
    const live = JSON.parse(cli(['status', '--json', '--dir', dir]).stdout)
    expect(live.sessions.map((s: { liveness: string }) => s.liveness)).toEqual(['live', 'live', 'live'])
  })

  test('--stale-after overrides the 75 s threshold', () => {
    const r = cli(['status', '--json', '--stale-after', '100', '--dir', dir])
    expect(JSON.parse(r.stdout).sessions.map((s: { session_id: string }) => s.session_id)).toContain(
      'stale-tool-0004',
    )
  })

  test('a prefix selects; one that matches nothing exits 1 with a message on stderr', () => {
    expect(cli(['status', 'fresh-w', '--dir', dir]).stdout).toContain('fresh-wo')
    const none = cli(['status', 'zzz', '--dir', dir])
    expect(none.status).toBe(1)
    expect(none.stderr).toBe('No session matches zzz\n')
    expect(none.stdout).toBe('')
  })

  test('no rows; usage errors exit 2 with one line', () => {
    const empty = folder([])
    expect(cli(['status', '--dir', empty]).stdout).toBe('No live sessions.\n')
    expect(cli(['status', '--all', '--dir', empty]).stdout).toBe('No sessions.\n')
    for (const args of [['status', '--stale-after', '0'], ['status', '--nope'], ['frobnicate']]) {
      const r = cli(args)
      expect(r.status, args.join(' ')).toBe(2)
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })

  test('AGENT_STATE_DIR is a :-separated list; default folders are read when they exist', () => {
    const other = folder([{ id: 'other-0007', state: 'working' }])
    const r = cli(['status', '--json'], { AGENT_STATE_DIR: `${dir}:${other}` })
    expect(JSON.parse(r.stdout).sessions).toHaveLength(4)
    const home = mkdtempSync(join(tmpdir(), 'agent-state-home-'))
    mkdirSync(join(home, '.claude', 'agent-state'), { recursive: true })
    mkdirSync(join(home, '.tack', 'agent-state'), { recursive: true })
    writeFileSync(join(home, '.claude', 'agent-state', 'c.json'), snapshot({ id: 'c' }))
    writeFileSync(join(home, '.tack', 'agent-state', 't.json'), snapshot({ id: 't', host: 'tack' }))
    const d = cli(['status', '--json'], { HOME: home, TACK_HOME: '' })
    expect(
      JSON.parse(d.stdout)
        .sessions.map((s: { session_id: string }) => s.session_id)
        .sort(),
    ).toEqual(['c', 't'])
  })

  test('R22 a relative TACK_HOME is resolved against the working folder, as tack resolves it (tack-home)', () => {
    const work = mkdtempSync(join(tmpdir(), 'agent-state-cwd-'))
    const home = mkdtempSync(join(tmpdir(), 'agent-state-home-'))
    mkdirSync(join(work, 'dev-home', 'agent-state'), { recursive: true })
    mkdirSync(join(home, '.tack', 'agent-state'), { recursive: true })
    writeFileSync(join(work, 'dev-home', 'agent-state', 'rel.json'), snapshot({ id: 'rel', host: 'tack' }))
    writeFileSync(join(home, '.tack', 'agent-state', 'home.json'), snapshot({ id: 'home', host: 'tack' }))
    const r = cli(['status', '--json'], { HOME: home, TACK_HOME: 'dev-home' }, work)
    expect(r.stderr).toBe('')
    expect(JSON.parse(r.stdout).sessions.map((s: { session_id: string }) => s.session_id)).toEqual(['rel'])
  })

  test('a newer schema is shown after one stderr warning', () => {
    const dir2 = folder([{ id: 'future-0008', schema: 2, state: 'idle' }])
    const r = cli(['status', '--dir', dir2])
    expect(r.stdout).toContain('future-0')
    expect(r.stderr.match(/newer than this reader/g)).toHaveLength(1)
  })

  test('a file being rewritten non-atomically is retried once after 50 ms', async () => {
    const dir3 = mkdtempSync(join(tmpdir(), 'agent-state-retry-'))
    const file = join(dir3, 'late.json')
    writeFileSync(file, '{"sch')
    setTimeout(() => writeFileSync(file, snapshot({ id: 'late' })), 15)
    const entries = await readEntries([dir3], { now: Date.now() })
    expect(entries.map((e) => e.liveness)).toEqual(['live'])
  })

  test('R23 a session-controlled field (cwd, tool, signal, file name) is printed with its control characters written out', () => {
    const ESC = '\x1b'
    const dir = folder([
      {
        id: 'hostile-0001',
        state: 'tool',
        tool: `Bash${ESC}[2K`,
        cwd: `/work/${ESC}]0;PWNED\x07repo\nFAKE ROW`,
        signals: { command: `ls${ESC}[8m` },
      },
    ])
    writeFileSync(join(dir, `bad${ESC}[1Aname.json`), 'not json')
    const r = cli(['status', '--all', '--dir', dir])
    expect(r.status).toBe(0)
    expect(r.stdout).not.toContain(ESC)
    expect(r.stdout).toContain('/work/\\x1b]0;PWNED\\x07repo\\x0aFAKE ROW')
    expect(r.stdout).toContain('tool:Bash\\x1b[2K')
    expect(r.stdout).toContain('cmd=ls\\x1b[8m')
    expect(r.stdout).toContain('bad\\x1b[1Aname.json')
    expect(r.stdout.trim().split('\n')).toHaveLength(3) // the header and two rows: no forged row
  })

  test('durations read 12s, 2m05s, 1h02m', () => {
    expect([duration(12_400), duration(125_000), duration(3_720_000)]).toEqual(['12s', '2m05s', '1h02m'])
  })
})

describe('R24 watch', () => {
  test('off a TTY, --count 2 prints exactly two tables when a snapshot changes', async () => {
    const dir = folder([{ id: 'watch-0001', state: 'idle' }])
    const child = spawn(process.execPath, [BIN, 'watch', '--interval', '200', '--count', '2', '--dir', dir], {
      env: { ...process.env, HOME },
    })
    let out = ''
    child.stdout.on('data', (b) => {
      out += b
      if (out.includes('watch-00') && !out.includes('working'))
        writeFileSync(join(dir, 'watch-0001.json'), snapshot({ id: 'watch-0001', state: 'working' }))
    })
    const code = await new Promise((resolve) => child.on('exit', resolve))
    expect(code).toBe(0)
    const tables = out.split('\n\n').filter(Boolean)
    expect(tables).toHaveLength(2)
    expect(tables.every((t) => t.startsWith('SESSION'))).toBe(true)
    expect(out).not.toContain('\x1b[')
  })

  test('in a pseudo-terminal it hides the cursor, redraws in place, and restores the cursor on SIGTERM', () => {
    const dir = folder([{ id: 'pty-0001', state: 'permission', tool: 'Edit' }])
    // python's pty module gives the child a real terminal; after two redraws the child gets SIGTERM
    const driver = `
import os, pty, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b''
deadline = time.time() + 20
while out.count(b'\\x1b[H\\x1b[2J') < 2 and time.time() < deadline:
    out += os.read(fd, 65536)
os.kill(pid, signal.SIGTERM)
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(repr(out) + '\\n' + str(os.waitstatus_to_exitcode(status)) + '\\n')
`
    const r = spawnSync(
      'python3',
      ['-c', driver, process.execPath, BIN, 'watch', '--interval', '200', '--dir', dir],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME },
        timeout: 30_000,
      },
    )
    const [raw, code] = r.stdout.trim().split('\n')
    expect(code).toBe('0')
    expect(raw.startsWith("b'\\x1b[?25l")).toBe(true)
    expect(raw.split('\\x1b[H\\x1b[2J').length - 1).toBeGreaterThanOrEqual(2)
    expect(raw).toContain('permission:Edit')
    expect(raw.endsWith("\\x1b[?25h'")).toBe(true)
  })

  test('--interval outside 200..60000 is a usage error', () => {
    const r = cli(['watch', '--interval', '100'])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('--interval takes a whole number from 200 to 60000')
  })
})

describe('R25 tmux', () => {
  test('200 snapshots are summarised correctly, with --cwd, --format and --style', () => {
    const fixtures: Fixture[] = []
    const states = ['permission', 'working', 'tool', 'idle', 'ended']
    for (let i = 0; i < 200; i++) {
      const state = states[i % 5]
      fixtures.push({
        id: `s-${String(i).padStart(3, '0')}`,
        state,
        tool: state === 'tool' || state === 'permission' ? 'Bash' : null,
        beatAgoS: i % 10 === 9 ? 90 : 1,
        cwd: i < 100 ? '/repo/a' : '/repo/b/sub',
      })
    }
    // i%5==4 is ended; i%10==9 is also stale-by-heartbeat but ended wins; stale ones: none among live states
    const dir = folder(fixtures)
    expect(cli(['tmux', '--dir', dir]).stdout).toBe('perm:40 work:80 idle:40\n')
    expect(cli(['tmux', '--dir', dir, '--cwd', '/repo/b']).stdout).toBe('perm:20 work:40 idle:20\n')
    expect(cli(['tmux', '--dir', dir, '--cwd', '/repo/a/']).stdout).toBe('perm:20 work:40 idle:20\n')
    expect(cli(['tmux', '--dir', dir, '--cwd', '/repo/b/s']).stdout).toBe('\n')
    expect(cli(['tmux', '--dir', dir, '--style', 'tmux']).stdout).toBe(
      '#[fg=red]perm:40#[default] work:80 idle:40\n',
    )
    expect(
      cli([
        'tmux',
        '--dir',
        dir,
        '--format',
        '{total} live, {permission} waiting, {stale} stale',
        '--style',
        'tmux',
      ]).stdout,
    ).toBe('160 live, #[fg=red]40#[default] waiting, 0 stale\n')
  })

  test('zero counts are omitted, stale ones counted for {stale}; it always exits 0 with errors on stderr', () => {
    const dir = folder([
      { id: 'a', state: 'idle' },
      { id: 'b', state: 'working', beatAgoS: 200 },
    ])
    expect(cli(['tmux', '--dir', dir]).stdout).toBe('idle:1\n')
    expect(cli(['tmux', '--dir', dir, '--format', '{stale}/{total}']).stdout).toBe('1/1\n')
    const bad = cli(['tmux', '--style', 'loud'])
    expect(bad.status).toBe(0)
    expect(bad.stdout).toBe('')
    expect(bad.stderr).toContain('--style is plain or tmux')
  })

  test('counting ignores unreadable and ended sessions', () => {
    const counts = countSessions([{ liveness: 'unreadable', file: 'x' }])
    expect(counts.total).toBe(0)
    expect(tmuxLine(counts, { style: 'plain' })).toBe('')
  })
})

describe('the command line', () => {
  test('no command prints the usage on stderr and exits 2; --help on stdout, 0', () => {
    const none = cli([])
    expect(none.status).toBe(2)
    expect(none.stdout).toBe('')
    expect(none.stderr).toContain('Usage: agent-state')
    const help = cli(['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toContain('plugin-dir')
  })

  test('a named folder that does not exist is reported once on stderr', () => {
    const r = cli(['status', '--dir', '/nonexistent/agent-state'])
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('No live sessions.\n')
    expect(r.stderr).toBe('agent-state: no folder /nonexistent/agent-state\n')
    const t = cli(['tmux', '--dir', '/nonexistent/agent-state'])
    expect(t.stdout).toBe('\n')
  })
})
