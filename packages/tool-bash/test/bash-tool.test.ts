// The `bash` tool through the real registry and pipeline (TL-17): results, errors, meta, the scrubbed
// environment, timeouts, truncation with a spill file, abort and render intents.
import { readdir, readFile, realpath } from 'node:fs/promises'
import { join } from 'node:path'
import { createToolsContext } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { BashToolPlugin } from '../src/plugin.ts'
import { isGone, readPid, bashCall, bashContext, tempDir, textOf } from './helpers.ts'

describe('bash tool results', () => {
  it('TL-17 a successful command returns its output and meta, and leaves no spill file', async () => {
    const scratchRoot = await tempDir()
    const ctx = await bashContext({ scratchRoot })
    const result = await ctx.tools.execute(bashCall({ command: 'echo hello' }, await tempDir()))
    expect(result).toMatchObject({ isError: false, meta: { exitCode: 0, timedOut: false, truncated: false } })
    expect(textOf(result)).toBe('hello')
    expect(result.meta).not.toHaveProperty('spillPath')
    expect(await readdir(join(scratchRoot, 'no-session'))).toEqual([])
  })

  it("TL-17 runs in the agent's cwd", async () => {
    const cwd = await tempDir()
    const result = await (await bashContext()).tools.execute(bashCall({ command: 'pwd -P' }, cwd))
    expect(textOf(result)).toBe(await realpath(cwd))
  })

  it('TL-17 a command without output says so', async () => {
    const result = await (await bashContext()).tools.execute(bashCall({ command: 'true' }, await tempDir()))
    expect(textOf(result)).toBe('(no output)')
  })

  it('TL-17 a non-zero exit is an error result carrying the output and the exit code', async () => {
    const ctx = await bashContext()
    const result = await ctx.tools.execute(
      bashCall({ command: 'echo partial; echo oops >&2; exit 3' }, await tempDir()),
    )
    expect(result).toMatchObject({ isError: true, error: { code: 'COMMAND_FAILED' }, meta: { exitCode: 3 } })
    expect(textOf(result)).toBe('partial\noops\n[exit code 3]')
  })

  it('R2 exit 127 (command not found) is an error result with bash’s message', async () => {
    const ctx = await bashContext()
    const result = await ctx.tools.execute(bashCall({ command: 'no-such-command-tack' }, await tempDir()))
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'COMMAND_FAILED' },
      meta: { exitCode: 127 },
    })
    expect(textOf(result)).toContain('command not found')
  })

  it('R2 exit by signal is an error result naming the signal', async () => {
    const ctx = await bashContext()
    const result = await ctx.tools.execute(bashCall({ command: 'kill -USR1 $$' }, await tempDir()))
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'COMMAND_FAILED' },
      meta: { exitCode: null, signal: 'SIGUSR1', timedOut: false },
    })
    expect(textOf(result)).toBe('(no output)\n[killed by signal SIGUSR1]')
  })

  it('TL-17 a missing working directory is a SPAWN_FAILED error result', async () => {
    const cwd = join(await tempDir(), 'gone')
    const result = await (await bashContext()).tools.execute(bashCall({ command: 'ls' }, cwd))
    expect(result).toMatchObject({ isError: true, error: { code: 'SPAWN_FAILED' } })
    expect(textOf(result)).toBe(
      `[the command could not be started: the working directory ${cwd} does not exist]`,
    )
  })

  it('TL-17 background processes left running are terminated when the command ends, and the result says so', async () => {
    const cwd = await tempDir()
    const result = await (await bashContext()).tools.execute(
      bashCall({ command: 'sleep 60 & echo $! > bg.pid; echo started' }, cwd),
    )
    expect(result.isError).toBe(false)
    expect(textOf(result)).toContain(
      'started\n[processes the command left running in the background were terminated',
    )
    expect(isGone(await readPid(join(cwd, 'bg.pid')))).toBe(true)
  })

  it('TL-4 an empty command is refused before anything runs', async () => {
    const result = await (await bashContext()).tools.execute(bashCall({ command: '' }, await tempDir()))
    expect(result.error?.code).toBe('INVALID_ARGS')
  })
})

describe('bash tool environment', () => {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', FOO_TOKEN: 'canary-7', TERM: 'xterm-256color' }

  it('TL-17 FOO_TOKEN is absent unless allowed', async () => {
    const cwd = await tempDir()
    const command = 'printenv FOO_TOKEN || echo unset'
    const scrubbed = await (await bashContext({ env })).tools.execute(bashCall({ command }, cwd))
    expect(textOf(scrubbed)).toBe('unset')
    const allowed = await (await bashContext({ env, envAllow: ['FOO_TOKEN'] })).tools.execute(
      bashCall({ command }, cwd),
    )
    expect(textOf(allowed)).toBe('canary-7')
  })

  it('TL-17 NO_COLOR, TERM, PAGER and GIT_PAGER are set', async () => {
    const ctx = await bashContext({ env })
    const result = await ctx.tools.execute(
      bashCall({ command: 'echo "$NO_COLOR $TERM $PAGER $GIT_PAGER"' }, await tempDir()),
    )
    expect(textOf(result)).toBe('1 dumb cat cat')
  })

  it("TL-17 without an env option commands start from tack's process environment, scrubbed", async () => {
    process.env.TACK_BASH_TEST_PLAIN = 'plain'
    process.env.TACK_BASH_TEST_TOKEN = 'secret'
    try {
      const result = await (await bashContext()).tools.execute(
        bashCall(
          { command: 'printenv TACK_BASH_TEST_PLAIN; printenv TACK_BASH_TEST_TOKEN || echo unset' },
          await tempDir(),
        ),
      )
      expect(textOf(result)).toBe('plain\nunset')
    } finally {
      delete process.env.TACK_BASH_TEST_PLAIN
      delete process.env.TACK_BASH_TEST_TOKEN
    }
  })
})

describe('bash tool timeouts, truncation and abort', () => {
  it('TL-17 a timeout is a TIMEOUT error result and the group is gone', async () => {
    const cwd = await tempDir()
    const ctx = await bashContext({ graceMs: 100 })
    const result = await ctx.tools.execute(
      bashCall({ command: 'echo before; sleep 30 & echo $! > bg.pid; wait', timeout_ms: 1000 }, cwd),
    )
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'TIMEOUT' },
      meta: { timedOut: true, exitCode: null },
    })
    expect(textOf(result)).toBe(
      "before\n[timed out after 1000 ms; the command's process group was terminated]",
    )
    expect(isGone(await readPid(join(cwd, 'bg.pid')))).toBe(true)
  })

  it('TL-17 a timeout_ms above maxTimeoutMs is clamped and the output says so', async () => {
    const ctx = await bashContext({ timeoutMs: 300, maxTimeoutMs: 300, graceMs: 100 })
    const cwd = await tempDir()
    const quick = await ctx.tools.execute(bashCall({ command: 'echo hi', timeout_ms: 100_000 }, cwd))
    expect(quick.isError).toBe(false)
    expect(textOf(quick)).toBe(
      '[timeout_ms 100000 is above the maximum; the command ran with a timeout of 300 ms]\nhi',
    )
    const slow = await ctx.tools.execute(bashCall({ command: 'sleep 30', timeout_ms: 100_000 }, cwd))
    expect(slow.error?.code).toBe('TIMEOUT')
    expect(textOf(slow)).toContain('[timed out after 300 ms;')
  })

  it('TL-17 a truncated result keeps the tail and names the complete spill file', async () => {
    const scratchRoot = await tempDir()
    const ctx = await bashContext({ maxOutputBytes: 1000, scratchRoot })
    const full = Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join('')
    const call = bashCall({ command: 'seq 1 5000' }, await tempDir(), { callId: 'call_seq' })
    const result = await ctx.tools.execute(call)
    const spillPath = join(scratchRoot, 'no-session', 'bash-call_seq.log')
    expect(result.meta).toEqual({
      exitCode: 0,
      timedOut: false,
      truncated: true,
      spillPath,
      output: full.slice(-1000),
    })
    expect(textOf(result)).toBe(
      `[output truncated: showing the last 1000 of ${full.length} bytes; the full output is in ${spillPath}]\n${full.slice(-1000, -1)}`,
    )
    expect(await readFile(spillPath, 'utf8')).toBe(full)
  })

  it('TL-17 call ids are made safe as file names', async () => {
    const scratchRoot = await tempDir()
    const ctx = await bashContext({ maxOutputBytes: 10, scratchRoot })
    const call = bashCall({ command: 'seq 1 100' }, await tempDir(), { callId: '../x/y:code:1' })
    const result = await ctx.tools.execute(call)
    expect((result.meta as { spillPath: string }).spillPath).toBe(
      join(scratchRoot, 'no-session', 'bash-.._x_y_code_1.log'),
    )
  })

  it('TL-17 abort via the call signal yields ABORTED and the group is gone', async () => {
    const cwd = await tempDir()
    const controller = new AbortController()
    const ctx = await bashContext()
    const pending = ctx.tools.execute(
      bashCall({ command: 'sleep 30 & echo $! > bg.pid; wait' }, cwd, { signal: controller.signal }),
    )
    const pid = await readPid(join(cwd, 'bg.pid'))
    controller.abort()
    const result = await pending
    expect(result).toMatchObject({ isError: true, error: { code: 'ABORTED' }, meta: { timedOut: false } })
    expect(textOf(result)).toContain("[aborted; the command's process group was terminated]")
    expect(isGone(pid)).toBe(true)
  })
})

describe('bash tool presentation and lifecycle', () => {
  it('TL-10 its presentation: an execute call keyed by its command, a command intent, a terminal result', async () => {
    const ctx = await bashContext()
    const args = { command: 'echo hi; exit 4', description: 'Say hi' }
    expect(ctx.tools.presentCall('bash', args)).toEqual({
      kind: 'execute',
      title: 'Say hi',
      keyArgument: args.command,
      locations: [],
      intents: [{ kind: 'command', command: args.command }],
    })
    const result = await ctx.tools.execute(bashCall(args, await tempDir()))
    expect(ctx.tools.presentResult('bash', args, result).intents).toEqual([
      { kind: 'terminal', output: 'hi\n[exit code 4]', exitCode: 4 },
    ])
    expect(ctx.tools.presentCall('bash', { command: 'ls' })).toMatchObject({
      title: 'bash',
      keyArgument: 'ls',
    })
  })

  it('TL-10 a command killed on its timeout shows a null exit code', async () => {
    const ctx = await bashContext({ graceMs: 50 })
    const args = { command: 'sleep 30', timeout_ms: 100 }
    const result = await ctx.tools.execute(bashCall(args, await tempDir()))
    expect(ctx.tools.presentResult('bash', args, result).intents).toEqual([
      expect.objectContaining({ kind: 'terminal', exitCode: null }),
    ])
  })

  it('TL-1 disposing the plugin removes the tool', async () => {
    const ctx = await createToolsContext()
    const fiber = ctx.plugin(BashToolPlugin, {})
    await fiber
    expect(ctx.tools.get('bash')).toBeDefined()
    await fiber.dispose()
    expect(ctx.tools.get('bash')).toBeUndefined()
  })
})
