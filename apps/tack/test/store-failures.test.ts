// Issue 9 item 7 through the real binary: a damaged, hand-edited, read-only or full session store ends
// tack with one line naming the file and what to do (exit 1 or 2, never a stack trace), and the file is
// not overwritten. Also: `$TACK_HOME` is created 0700 and `sessions.db` 0600.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, test } from 'vitest'
import { jsonLines, outcomeOf, runTack, type Sandbox, sandbox, TACK_BIN, type TackResult } from './helpers.ts'

async function scripted(box: Sandbox, entries: unknown[], name = 'script.json'): Promise<string> {
  const file = join(box.root, name)
  await writeFile(file, JSON.stringify(entries))
  return `scripted/${file}`
}

/** A store holding one finished session; returns its id and the db path. */
async function storeWithOneSession(box: Sandbox) {
  const model = await scripted(box, [{ kind: 'text', text: 'first answer' }], 'first.json')
  const run = await runTack(['run', '--json', '--model', model, 'hello'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(run.code).toBe(0)
  const id = (jsonLines(run.stdout).at(-1) as { sessionId: string }).sessionId
  return { id, db: join(box.tackHome, 'sessions.db') }
}

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

/** One line on stderr, naming `file`, no stack trace, exit 1 or 2. */
function expectOneClearLine(r: TackResult, file: string, fix: RegExp): void {
  expect(r.code === 1 || r.code === 2, `exit code ${r.code}; stderr: ${r.stderr}`).toBe(true)
  const lines = r.stderr.trimEnd().split('\n')
  expect(lines, r.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^tack: /)
  expect(lines[0]).toContain(file)
  expect(lines[0]).toMatch(fix)
  expect(r.stderr).not.toMatch(/^\s+at /m)
}

/** Like expectOneClearLine, for a run: earlier lines are progress and warnings, each a `tack: ` line. */
function expectClearLastLine(r: TackResult, file: string, fix: RegExp): void {
  expect(r.code === 1 || r.code === 2, `exit code ${r.code}; stderr: ${r.stderr}`).toBe(true)
  const lines = r.stderr.trimEnd().split('\n')
  for (const line of lines) expect(line, r.stderr).toMatch(/^tack: /)
  expect(lines.at(-1)).toContain(file)
  expect(lines.at(-1)).toMatch(fix)
  expect(r.stderr).not.toMatch(/^\s+at /m)
}

describe('clear store errors (issue 9.7)', () => {
  test('a damaged page: every command says so in one line and the file stays byte-identical', async () => {
    const box = await sandbox()
    const { id, db } = await storeWithOneSession(box)
    // Garbage over the second page (the first b-tree page after the header page).
    const fd = openSync(db, 'r+')
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 4096)
    const before = digest(db)
    for (const args of [
      ['sessions', 'list'],
      ['sessions', 'show', id],
      ['run', '--model', 'scripted/x.json', 'hi'],
    ]) {
      const r = await runTack(args, { env: box.env, cwd: box.workspace })
      expectOneClearLine(r, db, /STORE_CORRUPT: .*damaged.*Move it aside/)
    }
    expect(digest(db)).toBe(before)
  })

  test('a row that is not JSON: show and export name the session and the fix; nothing changes', async () => {
    const box = await sandbox()
    const { id, db } = await storeWithOneSession(box)
    const raw = new DatabaseSync(db)
    raw.prepare("UPDATE events SET data = '{not json' WHERE session_id = ? AND seq = 1").run(id)
    raw.close()
    const before = digest(db)
    for (const sub of ['show', 'export']) {
      const r = await runTack(['sessions', sub, id], { env: box.env, cwd: box.workspace })
      expectOneClearLine(
        r,
        db,
        new RegExp(`NOT_JSON: .*session ${id}, event 1, is not valid JSON.*tack sessions rm ${id}`),
      )
    }
    expect(digest(db)).toBe(before)
  })

  test('a read-only store: run refuses in one line naming the file; the file is unchanged', async () => {
    const box = await sandbox()
    const { db } = await storeWithOneSession(box)
    const model = await scripted(box, [{ kind: 'text', text: 'never' }], 'second.json')
    chmodSync(db, 0o444)
    const before = digest(db)
    // root ignores file modes: run tack as root without its capabilities then (setpriv), so the mode
    // holds and the repository stays reachable wherever it was cloned (another user could not enter a
    // checkout in a 0700 `mktemp -d` folder).
    const asRoot = process.getuid?.() === 0
    const r = await runWithoutCapabilities(asRoot, ['run', '--model', model, 'hi'], box)
    expectOneClearLine(r, db, /STORE_READ_ONLY: .*read-only.*make the file and its folder writable/)
    expect(digest(db)).toBe(before)
  })

  test('a full disk mid-run: the turn ends in one line naming the file; what was written stays', async () => {
    const box = await sandbox()
    const disk = join(box.root, 'disk')
    mkdirSync(disk)
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk]).status === 0
    try {
      // Node's compile cache (docs/decisions/0325-start-up-steps.md) lives under $TACK_HOME by default and
      // would fill this 1 MiB disk on the first run; it is kept off it, so the disk fills where the test says.
      const env = {
        ...box.env,
        TACK_HOME: join(disk, 'home'),
        NODE_COMPILE_CACHE: join(box.root, 'compile-cache'),
      }
      const filler = join(disk, 'filler')
      const first = await runTack(
        ['run', '--model', await scripted(box, [{ kind: 'text', text: 'kept' }], 'a.json'), 'one'],
        { env, cwd: box.workspace },
      )
      expect(first.code).toBe(0)
      // Unsandboxed: a sandboxed call records its placeholders in $TACK_HOME/placeholders, on this disk,
      // and removing those records when the call ends frees the few KiB the next flush needs.
      writeFileSync(join(disk, 'home', 'config.yml'), 'plugins:\n  bash:\n    sandbox: "off"\n')
      // The model's bash call fills the disk; the next flush (its result) cannot be written. Where no
      // tmpfs can be mounted (not root), a file size limit makes the same write fail (EFBIG).
      const model = await scripted(
        box,
        [
          {
            kind: 'tool-calls',
            calls: [
              { name: 'bash', args: { command: `head -c 4000000 /dev/zero > '${filler}'; echo filled` } },
            ],
          },
          { kind: 'text', text: 'never stored' },
        ],
        'b.json',
      )
      const r = mounted
        ? await runTack(['run', '--model', model, 'fill'], { env, cwd: box.workspace })
        : await runLimited(['run', '--model', model, 'fill'], { ...box, env })
      // A run also prints its progress line and the loop's persist warnings (plugin warnings reach
      // stderr): the turn's own error is the last line, and every line is one clear line.
      expectClearLastLine(
        r,
        join(disk, 'home', 'sessions.db'),
        /STORE_(FULL|IO): .*(disk is full|I\/O error).*free/,
      )
      // Mid-run the turn ends `error` (exit 1); under the size limit the store may already fail to open (2).
      if (mounted) expect(r.code).toBe(1)
      rmSync(filler, { force: true })
      const list = await runTack(['sessions', 'list', '--json'], { env, cwd: box.workspace })
      expect(list.code).toBe(0)
      const sessions = JSON.parse(list.stdout) as Array<{
        id: string
        eventCount: number
        firstPrompt?: string
      }>
      // Mounted: the cut run's session is there too (closed on load). Size-limited: it never opened.
      expect(sessions).toHaveLength(mounted ? 2 : 1)
      // the list is newest first: the first run's session is the one whose prompt was `one`
      const firstId = sessions.find((s) => s.firstPrompt === 'one')?.id ?? ''
      const kept = await runTack(['sessions', 'show', firstId], { env, cwd: box.workspace })
      expect(kept.stdout).toContain('kept')
      expect(kept.stdout).toContain('{"kind":"completed"}')
    } finally {
      if (mounted) spawnSync('umount', ['-l', disk])
    }
  })

  test('$TACK_HOME is created 0700 and sessions.db (with its WAL files) 0600', async () => {
    const box = await sandbox()
    const { db } = await storeWithOneSession(box)
    expect(statSync(box.tackHome).mode & 0o777).toBe(0o700)
    expect(statSync(db).mode & 0o777).toBe(0o600)
  })
})

function runWithoutCapabilities(dropped: boolean, args: string[], box: Sandbox): Promise<TackResult> {
  const command = [process.execPath, TACK_BIN, ...args]
  const argv = dropped ? ['setpriv', '--bounding-set=-all', '--inh-caps=-all', '--', ...command] : command
  const child = spawn(argv[0], argv.slice(1), { env: box.env, cwd: box.workspace })
  child.stdin.end()
  return outcomeOf(child)
}

/**
 * tack under an 8 KiB file size limit (SIGXFSZ ignored, so a write past it fails EFBIG instead of
 * killing): the WAL's second frame or its 32 KiB shared-memory file cannot be written.
 */
function runLimited(args: string[], box: Sandbox): Promise<TackResult> {
  const quoted = [process.execPath, TACK_BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')
  const child = spawn('bash', ['-c', `trap '' XFSZ; ulimit -f 8; exec ${quoted}`], {
    env: box.env,
    cwd: box.workspace,
  })
  child.stdin.end()
  return outcomeOf(child)
}
