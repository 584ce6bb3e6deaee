// Every Config field: its default, a configured value taking effect, and a rejected value naming the
// field (overview decision 8).
import { readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { BashToolConfig, DEFAULT_SANDBOX_DENY_READ } from '../src/config.ts'
import { BashToolPlugin } from '../src/plugin.ts'
import { bashCall, bashContext, tempDir, textOf } from './helpers.ts'

const rejects = async (config: Record<string, unknown>, field: RegExp) => {
  expect(() => BashToolConfig.parse(config, 'config.yml')).toThrow(ConfigError)
  expect(() => BashToolConfig.parse(config, 'config.yml')).toThrow(field)
  expect(() => BashToolConfig.parse(config, 'config.yml')).toThrow(/^config\.yml: /)
  const ctx = new Context()
  await expect(ctx.plugin(BashToolPlugin, config)).rejects.toThrow(field)
}

describe('BashToolConfig defaults', () => {
  it('TL-17 the defaults are timeoutMs 120000, maxTimeoutMs 600000, maxOutputBytes 64000, graceMs 3000, envAllow [], scratchRoot <tmpdir>/tack-scratch, no env; 9.3 sandbox auto, network allowed, the built-in deny list', () => {
    expect(BashToolConfig.parse({})).toEqual({
      timeoutMs: 120_000,
      maxTimeoutMs: 600_000,
      maxOutputBytes: 64_000,
      graceMs: 3_000,
      envAllow: [],
      envDeny: [],
      scratchRoot: join(tmpdir(), 'tack-scratch'),
      scratchMaxAgeHours: 168,
      sandbox: 'auto',
      sandboxNetwork: 'allow',
      sandboxWritable: [],
      sandboxDenyRead: [...DEFAULT_SANDBOX_DENY_READ],
      sandboxExtraDenyRead: [],
    })
    expect(DEFAULT_SANDBOX_DENY_READ).toEqual(
      expect.arrayContaining(['~/.ssh', '~/.aws', '~/.config/gcloud', '~/.netrc', '~/.tack']),
    )
  })

  it('0011 bash declares execute access, no paths (the OS sandbox scopes it), and Bash for both hook hosts', async () => {
    const def = (await bashContext()).tools.get('bash')
    expect(def?.access).toBe('execute')
    expect(def?.paths).toBeUndefined()
    expect(Object.fromEntries(Object.entries(def?.host ?? {}).map(([host, m]) => [host, m?.name]))).toEqual({
      claude: 'Bash',
      codex: 'Bash',
    })
  })

  it('TL-17 the default timeout and maximum are what the model is told', async () => {
    const ctx = await bashContext()
    const schema = ctx.tools.schemas().find((s) => s.name === 'bash')
    expect(JSON.stringify(schema?.parameters)).toContain('default 120000, at most 600000')
  })

  it('TL-17 the default maxTimeoutMs clamps a larger request to 600000', async () => {
    const result = await (await bashContext()).tools.execute(
      bashCall({ command: 'true', timeout_ms: 700_000 }, await tempDir()),
    )
    expect(textOf(result)).toContain('the command ran with a timeout of 600000 ms')
  })

  it('TL-17 the default maxOutputBytes keeps 64000 bytes and spills under <tmpdir>/tack-scratch', async () => {
    const ctx = await bashContext()
    const callId = `call_default_${process.pid}_${Date.now()}`
    const result = await ctx.tools.execute(
      bashCall({ command: 'head -c 70000 /dev/zero' }, await tempDir(), { callId }),
    )
    const spillPath = join(tmpdir(), 'tack-scratch', 'no-session', `bash-${callId}.log`)
    try {
      expect(textOf(result)).toContain(
        `showing the last 64000 of 70000 bytes; the full output is in ${spillPath}`,
      )
      expect((await readFile(spillPath)).length).toBe(70_000)
    } finally {
      await rm(spillPath, { force: true })
    }
  })
})

describe('BashToolConfig configured values', () => {
  it('TL-17 timeoutMs: a configured timeout applies when the call gives none', async () => {
    const ctx = await bashContext({ timeoutMs: 200, graceMs: 50 })
    const result = await ctx.tools.execute(bashCall({ command: 'sleep 30' }, await tempDir()))
    expect(result.error?.code).toBe('TIMEOUT')
    expect(textOf(result)).toContain('[timed out after 200 ms;')
  })

  it('TL-17 maxTimeoutMs: a configured maximum clamps', async () => {
    const ctx = await bashContext({ timeoutMs: 1000, maxTimeoutMs: 5000 })
    const result = await ctx.tools.execute(bashCall({ command: 'true', timeout_ms: 9000 }, await tempDir()))
    expect(textOf(result)).toContain(
      '[timeout_ms 9000 is above the maximum; the command ran with a timeout of 5000 ms]',
    )
  })

  it('TL-17 maxOutputBytes: a configured limit keeps that many bytes', async () => {
    const ctx = await bashContext({ maxOutputBytes: 10, scratchRoot: await tempDir() })
    const result = await ctx.tools.execute(bashCall({ command: 'seq 1 100' }, await tempDir()))
    expect(textOf(result)).toMatch(
      /^\[output truncated: showing the last 10 of 292 bytes; [^\n]*\]\n98\n99\n100$/,
    )
  })

  it('TL-17 graceMs: the configured grace decides whether a TERM-handling command may finish', async () => {
    // On SIGTERM the script needs about a second to exit by itself with code 7. The timeout leaves bash
    // time to set its trap on a loaded machine (at 200 ms a slow start met the TERM before the trap).
    const command = `trap 'sleep 1; exit 7' TERM; while :; do sleep 0.05; done`
    const cwd = await tempDir()
    const patient = await (await bashContext({ timeoutMs: 1_000, graceMs: 10_000 })).tools.execute(
      bashCall({ command }, cwd),
    )
    expect(patient).toMatchObject({ error: { code: 'TIMEOUT' }, meta: { exitCode: 7, timedOut: true } })
    const hasty = await (await bashContext({ timeoutMs: 1_000, graceMs: 50 })).tools.execute(
      bashCall({ command }, cwd),
    )
    expect(hasty).toMatchObject({ error: { code: 'TIMEOUT' }, meta: { exitCode: null, signal: 'SIGKILL' } })
  })

  it('TL-17 envAllow: an allowed secret-looking variable reaches the command', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', DEPLOY_KEY: 'k1', OTHER_KEY: 'k2' }
    const ctx = await bashContext({ env, envAllow: ['DEPLOY_KEY'] })
    const result = await ctx.tools.execute(
      bashCall({ command: 'printenv DEPLOY_KEY; printenv OTHER_KEY || echo unset' }, await tempDir()),
    )
    expect(textOf(result)).toBe('k1\nunset')
  })

  it('TL-17 scratchRoot: spill files go to <scratchRoot>/<session>/bash-<callId>.log', async () => {
    const scratchRoot = await tempDir()
    const ctx = await bashContext({ maxOutputBytes: 5, scratchRoot })
    const result = await ctx.tools.execute(
      bashCall({ command: 'seq 1 10' }, await tempDir(), { callId: 'c1' }),
    )
    const spillPath = join(scratchRoot, 'no-session', 'bash-c1.log')
    expect(result.meta).toMatchObject({ spillPath })
    expect(await readFile(spillPath, 'utf8')).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n')
  })

  it('TL-17 env: a configured environment replaces the process environment', async () => {
    const ctx = await bashContext({ env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ONLY_THIS: 'yes' } })
    const result = await ctx.tools.execute(
      bashCall({ command: 'printenv ONLY_THIS; printenv HOME || echo no-home' }, await tempDir()),
    )
    expect(textOf(result)).toBe('yes\nno-home')
  })
})

describe('BashToolConfig rejected values', () => {
  it('TL-17 timeoutMs must be a positive integer no larger than maxTimeoutMs', async () => {
    await rejects({ timeoutMs: 0 }, /timeoutMs: must be an integer 1–2147483647/)
    await rejects({ timeoutMs: 1.5 }, /timeoutMs/)
    await rejects({ timeoutMs: 700_000 }, /timeoutMs: must be at most maxTimeoutMs \(600000\)/)
  })

  it('TL-17 maxTimeoutMs must be an integer within the timer range', async () => {
    await rejects({ maxTimeoutMs: 'long' }, /maxTimeoutMs: must be an integer 1–2147483647/)
    await rejects({ maxTimeoutMs: 2_147_483_648 }, /maxTimeoutMs/)
  })

  it('TL-17 maxOutputBytes must be an integer 1–67108864', async () => {
    await rejects({ maxOutputBytes: 0 }, /maxOutputBytes: must be an integer 1–67108864/)
    await rejects({ maxOutputBytes: 1e9 }, /maxOutputBytes/)
  })

  it('TL-17 graceMs must be an integer 0–600000', async () => {
    await rejects({ graceMs: -1 }, /graceMs: must be an integer 0–600000/)
  })

  it('TL-17 envAllow must be a list of strings', async () => {
    await rejects({ envAllow: 'FOO_TOKEN' }, /envAllow: must be a list of strings/)
    await rejects({ envAllow: [1] }, /envAllow/)
  })

  it('TL-17 scratchRoot must be an absolute path', async () => {
    await rejects({ scratchRoot: 'relative/scratch' }, /scratchRoot: must be an absolute path/)
  })

  it('TL-17 env must be an object of string values', async () => {
    await rejects({ env: { A: 1 } }, /env: must be an object of string values/)
    await rejects({ env: ['A=1'] }, /env/)
  })

  it('TL-17 unknown keys are rejected', async () => {
    await rejects({ timeout: 5 }, /timeout: unknown key/)
  })
})
