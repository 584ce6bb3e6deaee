// TL-33: trusted spawns (hooks, `$.process.run`) get the environment they are given, unscrubbed,
// with the same group kill and bounded output as the bash tool.
import { describe, expect, it } from 'vitest'
import { commandLine, quoteShellArg } from '../src/shell-quote.ts'
import { spawnTrusted, TRUSTED_DEFAULT_MAX_OUTPUT_BYTES } from '../src/trusted.ts'
import { expectGrandchildGoneAfterTimeout, tempDir } from './helpers.ts'

describe('spawnTrusted', () => {
  it('TL-33 a trusted spawn sees a variable the bash tool would scrub, and no forced TERM', async () => {
    const run = await spawnTrusted({
      command: 'echo "$FOO_TOKEN $TERM"; printenv NO_COLOR || echo unset',
      cwd: await tempDir(),
      env: { PATH: process.env.PATH, FOO_TOKEN: 'canary-123', TERM: 'xterm-256color' },
      timeoutMs: 10_000,
    })
    expect(run.stdout).toBe('canary-123 xterm-256color\nunset\n')
  })

  it('TL-33 without an env it uses the process environment as it is', async () => {
    process.env.TACK_TRUSTED_SECRET_TOKEN = 'from-process'
    try {
      const run = await spawnTrusted({
        command: 'echo "$TACK_TRUSTED_SECRET_TOKEN"',
        cwd: await tempDir(),
        timeoutMs: 10_000,
      })
      expect(run.stdout).toBe('from-process\n')
    } finally {
      delete process.env.TACK_TRUSTED_SECRET_TOKEN
    }
  })

  it('TL-33 receives stdin input and keeps stdout and stderr apart by default', async () => {
    const payload = `${JSON.stringify({ hook_event_name: 'Stop', cwd: '/w' })}\n`
    const run = await spawnTrusted({
      command: 'cat > in.json; wc -c < in.json; echo warn >&2; exit 2',
      cwd: await tempDir(),
      input: payload,
      timeoutMs: 10_000,
    })
    expect(run).toMatchObject({ exitCode: 2, stdout: `${payload.length}\n`, stderr: 'warn\n' })
  })

  it('TL-33 a timed-out trusted spawn takes its backgrounded grandchild down with it', async () => {
    await expectGrandchildGoneAfterTimeout((dir) =>
      spawnTrusted({
        command: 'sleep 30 & echo $! > gc.pid; sleep 30',
        cwd: dir,
        timeoutMs: 1000,
        graceMs: 200,
      }),
    )
  })

  it('R2 trusted output is bounded per stream by default', async () => {
    const run = await spawnTrusted({
      command: `head -c ${TRUSTED_DEFAULT_MAX_OUTPUT_BYTES + 5000} /dev/zero; head -c 10 /dev/zero >&2`,
      cwd: await tempDir(),
      timeoutMs: 10_000,
    })
    expect(run.stdout.length).toBe(TRUSTED_DEFAULT_MAX_OUTPUT_BYTES)
    expect(run.stderr.length).toBe(10)
    expect(run).toMatchObject({ truncated: true, totalBytes: TRUSTED_DEFAULT_MAX_OUTPUT_BYTES + 5010 })
  })

  it('TL-33 the exec form quotes each argument as one word', async () => {
    const args = ["it's", '$HOME', 'a b', '"q"', '']
    const run = await spawnTrusted({
      command: commandLine('printf "[%s]\\n"', args),
      cwd: await tempDir(),
      timeoutMs: 10_000,
    })
    expect(run.stdout).toBe(args.map((a) => `[${a}]\n`).join(''))
    expect(quoteShellArg("a'b")).toBe(`'a'\\''b'`)
  })
})
