// A1–A3 and R2: runHook through the real process runner (@tack/process), real shell scripts in temp folders.
import { existsSync } from 'node:fs'
import { readFile, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  createHookBackend,
  DEFAULT_HOOK_TIMEOUT_MS,
  defaultHookBackend,
  hookCommandLine,
  hookTimeoutMs,
  runHook,
} from '../src/index.ts'
import { alive, readPid, script, tempDir } from './helpers.ts'

const fast = createHookBackend({ graceMs: 200 })

describe('A1 running', () => {
  it('A1 stdin gets the compact payload (+ newline for claude), cwd is the workspace, env adds the dialect variables', async () => {
    const dir = await tempDir()
    const payload = { hook_event_name: 'Stop', n: 1, s: 'x y' }
    for (const dialect of ['claude', 'codex'] as const) {
      const out = await runHook(
        defaultHookBackend,
        {
          command: `cat > in-${dialect}; pwd -P > wd-${dialect}; echo "$TACK_T:$HOME_SEEN" > env-${dialect}`,
        },
        {
          dialect,
          event: 'Stop',
          payload,
          cwd: dir,
          env: { TACK_T: `from-${dialect}` },
          baseEnv: { PATH: process.env.PATH, HOME_SEEN: 'base' },
        },
      )
      expect(out).toMatchObject({ failed: false, exitCode: 0 })
      const bytes = await readFile(join(dir, `in-${dialect}`), 'utf8')
      expect(bytes).toBe(JSON.stringify(payload) + (dialect === 'claude' ? '\n' : ''))
      expect((await readFile(join(dir, `wd-${dialect}`), 'utf8')).trim()).toBe(await realpath(dir))
      expect((await readFile(join(dir, `env-${dialect}`), 'utf8')).trim()).toBe(`from-${dialect}:base`)
    }
  })

  it('A1 TL-33 the hook gets tack environment unscrubbed (a secret-looking variable survives)', async () => {
    const dir = await tempDir()
    process.env.TACK_HP_API_TOKEN = 'kept'
    try {
      const out = await runHook(
        defaultHookBackend,
        { command: 'printf %s "$TACK_HP_API_TOKEN"' },
        {
          dialect: 'claude',
          event: 'SessionStart',
          payload: {},
          cwd: dir,
        },
      )
      expect(out.stdout).toBe('kept')
    } finally {
      delete process.env.TACK_HP_API_TOKEN
    }
  })

  it('A1 exec form: the command and each argument are single words, nothing is expanded', async () => {
    const dir = await tempDir()
    const path = await script(dir, 'args with space.sh', 'for a in "$@"; do printf "[%s]" "$a"; done')
    expect(hookCommandLine({ command: path, args: ["it's", '$HOME', 'a b'] })).toBe(
      `'${path}' 'it'\\''s' '$HOME' 'a b'`,
    )
    const out = await runHook(
      defaultHookBackend,
      { command: path, args: ["it's", '$HOME', 'a b'] },
      {
        dialect: 'claude',
        event: 'Stop',
        payload: {},
        cwd: dir,
      },
    )
    expect(out.stdout).toBe("[it's][$HOME][a b]")
  })
})

describe('A2 timeout and abort', () => {
  it('A2 the default is 600 s; a hook timeout (seconds) overrides it; nonsense is ignored', () => {
    expect(DEFAULT_HOOK_TIMEOUT_MS).toBe(600_000)
    expect(hookTimeoutMs({})).toBe(600_000)
    expect(hookTimeoutMs({ timeout: 1 })).toBe(1000)
    expect(hookTimeoutMs({ timeout: 0.5 })).toBe(500)
    for (const t of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(hookTimeoutMs({ timeout: t })).toBe(600_000)
    }
  })

  it('A2 R2 timeout: 1 on sleep 30 kills the whole group (the hook and its child) and yields failed+timedOut, no decision', async () => {
    const dir = await tempDir()
    const out = await runHook(
      fast,
      {
        command:
          'echo $$ > pid; sleep 30 & echo $! > child; echo \'{"decision":"block"}\'; wait; echo late > marker',
        timeout: 1,
      },
      { dialect: 'claude', event: 'Stop', payload: {}, cwd: dir },
    )
    expect(out).toMatchObject({ failed: true, timedOut: true, json: false })
    expect(out.decision).toBeUndefined()
    expect(existsSync(join(dir, 'marker'))).toBe(false)
    expect(await alive(await readPid(join(dir, 'pid')))).toBe(false)
    expect(await alive(await readPid(join(dir, 'child')))).toBe(false)
  })

  it('A2 a TERM-trapping hook is killed after the grace', async () => {
    const dir = await tempDir()
    const out = await runHook(
      fast,
      { command: "trap '' TERM; echo $$ > pid; while :; do sleep 0.05; done", timeout: 1 },
      { dialect: 'codex', event: 'Stop', payload: {}, cwd: dir },
    )
    expect(out).toMatchObject({ failed: true, timedOut: true })
    expect(await alive(await readPid(join(dir, 'pid')))).toBe(false)
  })

  it('A2 an aborted signal kills the group and yields failed+aborted; an already-aborted one starts nothing', async () => {
    const dir = await tempDir()
    const controller = new AbortController()
    const running = runHook(
      fast,
      { command: 'echo $$ > pid; exec sleep 30' },
      {
        dialect: 'claude',
        event: 'SessionStart',
        payload: {},
        cwd: dir,
        signal: controller.signal,
      },
    )
    while (!existsSync(join(dir, 'pid'))) await new Promise((r) => setTimeout(r, 10))
    controller.abort()
    expect(await running).toMatchObject({ failed: true, aborted: true })
    expect(await alive(await readPid(join(dir, 'pid')))).toBe(false)
    const never = await runHook(
      fast,
      { command: 'touch started' },
      {
        dialect: 'claude',
        event: 'Stop',
        payload: {},
        cwd: dir,
        signal: controller.signal,
      },
    )
    expect(never).toMatchObject({ failed: true, aborted: true })
    expect(existsSync(join(dir, 'started'))).toBe(false)
  })
})

describe('A3 never throws', () => {
  it('A3 spawn, backend and payload faults resolve to failed', async () => {
    const dir = await tempDir()
    const opts = { dialect: 'claude' as const, event: 'Stop', payload: {}, cwd: dir }
    expect(await runHook(fast, { command: 'true' }, { ...opts, cwd: join(dir, 'missing') })).toMatchObject({
      failed: true,
      failure: expect.stringMatching(/^spawn: /),
    })
    expect(await runHook(fast, { command: 'true' }, { ...opts, payload: { n: 1n } })).toMatchObject({
      failed: true,
    })
    expect(await runHook(fast, { command: '' }, opts)).toMatchObject({ failed: true })
    expect(await runHook(fast, null as never, opts)).toMatchObject({ failed: true })
    const throwing = { run: () => Promise.reject(new Error('backend down')) }
    expect(await runHook(throwing, { command: 'true' }, opts)).toMatchObject({
      failed: true,
      failure: 'hook runner: backend down',
    })
    // No bash on PATH: a spawn error, not an exception.
    expect(
      await runHook(fast, { command: 'true' }, { ...opts, baseEnv: { PATH: '/nonexistent' } }),
    ).toMatchObject({
      failed: true,
    })
  })
})

describe('R2 faulty hooks', () => {
  const opts = (cwd: string, dialect: 'claude' | 'codex' = 'claude') => ({
    dialect,
    event: 'PreToolUse',
    payload: {},
    cwd,
  })

  it('R2 a hook that floods stdout is bounded (the tail is kept, truncated is set)', async () => {
    const dir = await tempDir()
    const small = createHookBackend({ maxOutputBytes: 4096, graceMs: 200 })
    const out = await runHook(
      small,
      { command: 'head -c 5000000 /dev/zero | tr "\\0" a; echo END' },
      opts(dir),
    )
    expect(out.truncated).toBe(true)
    expect(out.stdout.length).toBeLessThanOrEqual(4096)
    expect(out.stdout.endsWith('aEND')).toBe(true)
    expect(out.failed).toBe(false)
  })

  it('R2 invalid JSON, binary output, exit 1/2/127 and death by signal decode as the protocol says', async () => {
    const dir = await tempDir()
    const cases: Array<[string, 'claude' | 'codex', object]> = [
      [
        'printf \'{"decision": "block"\'',
        'claude',
        { failed: false, json: false, stdout: '{"decision": "block"' },
      ],
      ['printf \'{"decision": "block"\'', 'codex', { failed: true }],
      ["printf '\\x00\\xff\\xfe{binary'; exit 0", 'claude', { failed: false, json: false }],
      ['echo oops >&2; exit 1', 'claude', { failed: true, exitCode: 1, stderr: 'oops' }],
      ['echo "no rm -rf" >&2; exit 2', 'claude', { failed: false, decision: 'block', reason: 'no rm -rf' }],
      ['echo "no rm -rf" >&2; exit 2', 'codex', { failed: false, decision: 'block', reason: 'no rm -rf' }],
      ['definitely-not-a-command-xyz', 'claude', { failed: true, exitCode: 127 }],
      ['kill -KILL $$', 'claude', { failed: true, signal: 'SIGKILL' }],
      ['kill -TERM $$', 'codex', { failed: true, signal: 'SIGTERM' }],
    ]
    for (const [command, dialect, expected] of cases) {
      expect({ command, out: await runHook(fast, { command }, opts(dir, dialect)) }).toMatchObject({
        command,
        out: expected,
      })
    }
  })

  it('R2 a hook that forks a background child leaves no process behind once it returns', async () => {
    const dir = await tempDir()
    const out = await runHook(
      fast,
      { command: '(sleep 30; echo late > marker) & echo $! > child; echo ok' },
      opts(dir),
    )
    expect(out).toMatchObject({ failed: false, stdout: 'ok' })
    expect(await alive(await readPid(join(dir, 'child')))).toBe(false)
    expect(existsSync(join(dir, 'marker'))).toBe(false)
  })

  it('R2 a hook that does not read its stdin still works (EPIPE is contained)', async () => {
    const dir = await tempDir()
    const out = await runHook(
      fast,
      { command: 'exit 0' },
      { ...opts(dir), payload: { big: 'x'.repeat(2_000_000) } },
    )
    expect(out).toMatchObject({ failed: false, exitCode: 0 })
  })
})
