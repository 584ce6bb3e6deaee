// 85-skills-and-commands.md I3 through the real binary against the loopback model server
// (docs/decisions/0290-model-choice-and-effort.md): `--effort` and `/effort` reach the wire as
// `reasoning_effort`, are recorded in the request header and restored on continue; a model that takes no
// effort is refused with the reason; and `tack run -c --model X` after a logged `/model` switch is itself a
// logged switch that PreModelSwitch hooks see (before, it bypassed them).
import { readFile } from 'node:fs/promises'
import { type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, describe, expect, test } from 'vitest'
import { recordClaudeHook } from './claude-hook-recorder.ts'
import { jsonLines, runTack, type Sandbox, sandbox, writeLoopConfig } from './helpers.ts'

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

type Body = { model?: string; reasoning_effort?: unknown }
const bodyOf = (s: LoopbackServer, i: number) => s.requests.filter((r) => r.method === 'POST')[i].body as Body

async function setUp(
  answers: number,
): Promise<{ box: Sandbox; run: (...args: string[]) => ReturnType<typeof runTack> }> {
  server = await startLoopbackServer({
    script: Array.from({ length: answers }, (_, i) => ({ kind: 'text' as const, text: `answer ${i + 1}` })),
    models: ['m-a', 'm-b', 'm-c'],
  })
  const box = await sandbox()
  const config = await writeLoopConfig(box.root, server.baseUrl, { model: 'loop/m-a' })
  const run = (...args: string[]) =>
    runTack(['run', '--config', config, ...args], { env: box.env, cwd: box.workspace })
  return { box, run }
}

/** The `config` part of each request header the run's `--json` lines show (snapshot or delta). */
function headerConfigs(stdout: string): Array<Record<string, unknown>> {
  return jsonLines(stdout).flatMap((l) => {
    const data = l.data as { header?: { config?: Record<string, unknown> }; config?: Record<string, unknown> }
    if (l.type === 'request/header' && data.header?.config) return [data.header.config]
    if (l.type === 'request/header-delta' && data.config) return [data.config]
    return []
  })
}

describe('reasoning effort', () => {
  test('--effort high reaches the wire and the header; /effort low on the session is logged and a later -c keeps it', async () => {
    const { run } = await setUp(2)
    const first = await run('--json', '--effort', 'high', 'first task')
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(bodyOf(server as LoopbackServer, 0).reasoning_effort).toBe('high')
    expect(headerConfigs(first.stdout)).toEqual([{ model: 'loop/m-a', reasoningEffort: 'high' }])

    const switched = await run('-c', '/effort low')
    expect(switched.stdout).toBe('reasoning effort set to low (from the next request)\n')
    const shown = await run('-c', '/effort')
    expect(shown.stdout).toBe('reasoning effort: low\n')

    const later = await run('-c', '--json', 'second task')
    expect(later.code).toBe(0)
    expect(bodyOf(server as LoopbackServer, 1).reasoning_effort).toBe('low')
    const events = jsonLines(later.stdout)
    // the resumed header records the switched effort
    expect(headerConfigs(later.stdout).at(-1)).toEqual({ model: 'loop/m-a', reasoningEffort: 'low' })
    expect(events.some((e) => e.type === 'agent/effort')).toBe(false) // logged by the earlier run, not again
  })

  test('a model that takes no effort: /effort high says why, --effort warns and sends none', async () => {
    const { box, run } = await setUp(1)
    const env = { ...box.env, DEEPSEEK_API_KEY: 'sk-not-used-0123456789' }
    const refused = await runTack(['run', '--model', 'deepseek/deepseek-reasoner', '/effort high'], {
      env,
      cwd: box.workspace,
    })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("/effort: DeepSeek's deepseek-reasoner has no effort setting")
    // an OpenAI-compatible endpoint takes it; a bad level is a usage error naming the flag
    const bad = await run('--effort', 'max', 'go')
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('--effort must be one of low, medium, high (got "max")')
    const warned = await runTack(
      [
        'run',
        '--json',
        '--model',
        'openai/gpt-4.1',
        '--effort',
        'high',
        '--base-url',
        (server as LoopbackServer).baseUrl,
        'go',
      ],
      {
        env: { ...env, OPENAI_API_KEY: 'sk-not-used-0123456789' },
        cwd: box.workspace,
      },
    )
    expect(warned.stderr).toContain('--effort high is not sent: gpt-4.1 is not an OpenAI reasoning model')
    expect(bodyOf(server as LoopbackServer, 0)).not.toHaveProperty('reasoning_effort')
    expect(headerConfigs(warned.stdout)).toEqual([{ model: 'openai/gpt-4.1' }])
  })

  test('effort: in a config file is validated, naming file and key', async () => {
    const { box } = await setUp(0)
    const { writeFile } = await import('node:fs/promises')
    const bad = `${box.root}/bad.yml`
    await writeFile(bad, 'effort: extreme\n')
    const out = await runTack(['run', '--config', bad, 'go'], { env: box.env, cwd: box.workspace })
    expect(out.code).not.toBe(0)
    expect(out.stderr).toContain(bad)
    expect(out.stderr).toContain('effort')
    expect(out.stderr).toContain('must be one of low, medium, high (got "extreme")')
  })
})

describe('tack run -c --model after a /model switch', () => {
  test('the flag is a logged switch PreModelSwitch hooks see (source cli_flag), the person is told, and later runs keep it', async () => {
    const { box, run } = await setUp(3)
    expect((await run('first task')).code).toBe(0)
    expect(bodyOf(server as LoopbackServer, 0).model).toBe('m-a')
    const switched = await run('-c', '/model loop/m-b')
    expect(switched.stdout).toContain('model set to loop/m-b')
    expect((await run('-c', 'second task')).code).toBe(0)
    expect(bodyOf(server as LoopbackServer, 1).model).toBe('m-b')

    const seen = await recordClaudeHook(box, 'PreModelSwitch', '*')
    const flagged = await run('-c', '--json', '--model', 'loop/m-c', 'third task')
    expect(flagged.code).toBe(0)
    expect(flagged.stderr).toContain('model switched from loop/m-b to loop/m-c (--model)')
    expect(bodyOf(server as LoopbackServer, 2).model).toBe('m-c')
    const switchEvents = jsonLines(flagged.stdout).filter((e) => e.type === 'agent/model')
    expect(switchEvents.map((e) => e.data)).toEqual([{ model: 'loop/m-c' }])
    const hookInput = JSON.parse(await readFile(seen, 'utf8')) as Record<string, unknown>
    expect(hookInput).toMatchObject({
      hook_event_name: 'PreModelSwitch',
      from_model: 'loop/m-b',
      to_model: 'loop/m-c',
      source: 'cli_flag',
    })

    // no flag: the continued session keeps the flag's model, from its log
    const shown = await run('-c', '/model')
    expect(shown.stdout).toBe('model: loop/m-c\n')
  })

  test('a PreModelSwitch hook that denies keeps the session on its model, and says so', async () => {
    const { box, run } = await setUp(2)
    expect((await run('first task')).code).toBe(0)
    await recordClaudeHook(box, 'PreModelSwitch', '*', { exit: { code: 2, stderr: 'no switching today' } })
    const flagged = await run('-c', '--model', 'loop/m-c', 'second task')
    expect(flagged.code).toBe(0)
    expect(flagged.stderr).toContain('--model loop/m-c was refused')
    expect(flagged.stderr).toContain('no switching today')
    expect(flagged.stderr).toContain('the session keeps loop/m-a')
    expect(bodyOf(server as LoopbackServer, 1).model).toBe('m-a')
  })
})
