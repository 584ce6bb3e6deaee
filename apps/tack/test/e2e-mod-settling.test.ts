// Mod work and the end of `tack run`, through the real binary against a loopback model: a hook that never
// settles is skipped at its budget (65-mod-host.md requirements 8 and 9), and what a mod started through `$`
// settles before tack exits, within `sessionEndBudgetMs` (docs/decisions/0155-mod-work-at-session-end.md).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { appendFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type LoopbackEntry, type LoopbackServer, startLoopbackServer } from '@tack/llm/testing'
import { afterEach, expect, test } from 'vitest'
import {
  jsonLines,
  outcomeOf,
  runTack,
  type Sandbox,
  sandbox,
  TACK_BIN,
  type TackResult,
  writeLoopConfig,
} from './helpers.ts'
import { writeMod } from './mod-folder.ts'

/** "One write at a time, then flush again": its session-end state is the follow-up of a write in flight. */
const FLUSH_AGAIN = fileURLToPath(
  new URL('../../../packages/mods/test/fixtures/flush-again', import.meta.url),
)

let server: LoopbackServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A sandbox, a loopback model playing `script`, and its config with `plugins.mods` lines added. */
async function loop(script: readonly LoopbackEntry[], modsYaml = '') {
  const box: Sandbox = await sandbox()
  server = await startLoopbackServer({ script })
  const config = await writeLoopConfig(box.root, server.baseUrl)
  if (modsYaml) await appendFile(config, `  mods:\n${modsYaml}`)
  return { box, config }
}

/**
 * A loopback model whose one move is `touch ran-by-bash`, and the mod `hang` whose `event` hook runs
 * `before` then awaits what never settles, under `hookBudgetMs`.
 */
async function hungHook(event: string, hookBudgetMs: number, before = '') {
  const { box, config } = await loop(
    [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'touch ran-by-bash' } }] },
      { kind: 'text', text: 'done' },
    ],
    `    hookBudgetMs: ${hookBudgetMs}\n`,
  )
  const mod = await writeMod(
    box.root,
    'hang',
    `export const register = (on) => {
      on('${event}', async ($, e, next) => { ${before}await new Promise(() => {}); return next(e) })
    }`,
  )
  return { box, config, mod }
}

test('a tool.call hook awaiting what never settles is skipped at hookBudgetMs: the tool runs, tack exits 0 and warns', async () => {
  const { box, config, mod } = await hungHook('tool.call', 400)
  const run = await runTack(
    ['run', '--json', '--config', config, '--model', 'loop/m', '--mod', mod, 'make a file'],
    { env: box.env, cwd: box.workspace },
  )
  expect(run.code).toBe(0)
  expect(run.stderr).toBe(
    'tack: mods: mod "hang": tool.call hook skipped (timeout): ran past its 400 ms budget\n',
  )
  expect(existsSync(join(box.workspace, 'ran-by-bash'))).toBe(true)
  const lines = jsonLines(run.stdout)
  expect(lines.at(-1)).toMatchObject({ type: 'result', answer: 'done' })
  expect(lines.find((l) => l.type === 'mod/fault')?.data).toMatchObject({
    mod: 'hang',
    event: 'tool.call',
    kind: 'timeout',
  })
  // skipped at its budget, not at once and not much later (a loaded machine gets some slack)
  const at = (type: string) => Date.parse(String(lines.find((l) => l.type === type)?.time))
  const waited = at('mod/fault') - at('tool/call')
  expect(waited).toBeGreaterThanOrEqual(390)
  expect(waited).toBeLessThan(400 + 2_000)
})

test('a mod final write chained on a write in flight reaches disk in 50 of 50 headless runs', async () => {
  const runs = 50
  // A generous bound: what is under test is that tack waits for the chained write at all; four runs at
  // once beside a parallel test suite on two cores can take longer than the 1.5 s default to end.
  const { box, config } = await loop(
    Array.from({ length: runs }, () => ({ kind: 'text' as const, text: 'hi' })),
    '    sessionEndBudgetMs: 10000\n',
  )
  const oneRun = async (i: number) => {
    const workspace = join(box.root, `ws-${i}`)
    await mkdir(workspace)
    const run = await runTack(['run', '--config', config, '--model', 'loop/m', '--mod', FLUSH_AGAIN, 'hi'], {
      env: box.env,
      cwd: workspace,
    })
    const file = join(workspace, '.mod-state', 'state.json')
    const state = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).state : 'no file'
    return { code: run.code, stderr: run.stderr, state }
  }
  // a few at a time: the machine has few cores, and the runs should still overlap
  const outcomes: Awaited<ReturnType<typeof oneRun>>[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < runs) outcomes.push(await oneRun(next++))
    }),
  )
  expect(outcomes.filter((o) => o.code !== 0 || o.stderr !== '')).toEqual([])
  expect(outcomes.filter((o) => o.state === 'ended')).toHaveLength(runs)
}, 600_000)

test('a $.process.run still running at session end is cut off at sessionEndBudgetMs: tack exits and says so', async () => {
  const { box, config } = await loop([{ kind: 'text', text: 'hi' }], '    sessionEndBudgetMs: 300\n')
  const mod = await writeMod(
    box.root,
    'slow-end',
    `export const register = (on) => {
      on('session.end', async ($, e, next) => { $.process.run(['sleep', '30']); return next(e) })
    }`,
  )
  const started = Date.now()
  const run = await runTack(['run', '--config', config, '--model', 'loop/m', '--mod', mod, 'hi'], {
    env: box.env,
    cwd: box.workspace,
  })
  expect(run.code).toBe(0)
  expect(run.stdout).toBe('hi\n')
  expect(run.stderr).toBe(
    'tack: mods: mod "slow-end": its work was cut off at session end (process.run still in flight when plugins.mods.sessionEndBudgetMs, 300 ms, ran out)\n',
  )
  // not the 30 s of the sleep: boot, one turn, the 300 ms bound and the kill (with slack for a loaded machine)
  expect(Date.now() - started).toBeLessThan(15_000)
}, 60_000)

/** A mod whose top-level code awaits what never settles: in every instance, or in all but the first (boot's probe). */
const hangingTopLevel = (probeLoads: boolean) => `${
  probeLoads
    ? 'const first = globalThis.__hangSeen === undefined\nglobalThis.__hangSeen = true\nif (!first) '
    : ''
}await new Promise(() => {})
export const register = (on) => { on('session.start', async ($, e) => { $.log('started') }) }
`

test.each([
  ['its session instance', true, ' \\(session [0-9a-f-]+; the mod is off for it\\)'],
  ['its boot probe', false, ''],
])(
  'a mod whose top-level code never settles in %s is turned off at hookBudgetMs: the run ends 0 and warns',
  async (_where, probeLoads, tail) => {
    const { box, config } = await loop([{ kind: 'text', text: 'hi' }], '    hookBudgetMs: 400\n')
    const mod = await writeMod(box.root, 'tla', hangingTopLevel(probeLoads))
    const run = await startBounded(box, config, mod).done
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('hi\n')
    expect(run.stderr).toMatch(
      new RegExp(
        `^tack: mods: mod "tla": loading did not settle within plugins\\.mods\\.hookBudgetMs \\(400 ms\\): its top-level code or register\\(\\) awaits what never settles${tail}\\n$`,
      ),
    )
  },
  60_000,
)

/**
 * `tack run <prompt>` with `mod` in the background, killed if it outlives 30 s (the defects these tests
 * catch are hangs); `done` is its outcome and how long it took.
 */
function startBounded(box: Sandbox, config: string, mod: string, prompt = 'hi') {
  const child = spawn(
    process.execPath,
    [TACK_BIN, 'run', '--config', config, '--model', 'loop/m', '--mod', mod, prompt],
    { env: box.env, cwd: box.workspace, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const started = Date.now()
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  const done = outcomeOf(child).then((run: TackResult) => {
    clearTimeout(killer)
    return { ...run, took: Date.now() - started }
  })
  return { child, done }
}

/** Runs `tack run hi` with `mod`: it answers and exits 0 by itself, well before the 30 s kill. */
async function answersAndExits(box: Sandbox, config: string, mod: string) {
  const run = await startBounded(box, config, mod).done
  expect(run.signal).toBeNull()
  expect(run.code).toBe(0)
  expect(run.stdout).toBe('hi\n')
  expect(run.took).toBeLessThan(15_000)
  return run
}

test('a mod that keeps chaining $ work at session end is cut off at sessionEndBudgetMs: tack exits and says so', async () => {
  const { box, config } = await loop([{ kind: 'text', text: 'hi' }], '    sessionEndBudgetMs: 300\n')
  const mod = await writeMod(
    box.root,
    'forever',
    `export const register = (on) => {
      on('session.end', async ($, e, next) => {
        let n = 0
        const write = async () => { for (;;) await $.fs.write('count.txt', String(n++)) }
        const store = () => $.store.set('k', n).then(store, store)
        write()
        store()
        return next(e)
      })
    }`,
  )
  const run = await answersAndExits(box, config, mod)
  expect(run.stderr).toMatch(
    /^tack: mods: mod "forever": its work was cut off at session end \((fs\.write, store\.set|store\.set, fs\.write) still in flight when plugins\.mods\.sessionEndBudgetMs, 300 ms, ran out\)\n$/,
  )
}, 60_000)

test('a timer a mod asks for while its session-end work settles is never scheduled: tack exits', async () => {
  const { box, config } = await loop([{ kind: 'text', text: 'hi' }])
  const mod = await writeMod(
    box.root,
    'late-timer',
    `export const register = (on) => {
      on('session.end', async ($, e, next) => {
        $.fs.write('written.txt', 'x').then(() => $.clock.every(100, () => {}))
        $.fs.write('slept.txt', 'x').then(() => $.clock.sleep(600_000))
        return next(e)
      })
    }`,
  )
  const run = await answersAndExits(box, config, mod)
  expect(run.stderr).toBe('')
  expect(existsSync(join(box.workspace, 'written.txt'))).toBe(true)
}, 60_000)

// A hook awaiting what never settles, on each event a turn waits for; `$.fs.write` first, so the test knows
// the hook is running before it signals.
const HUNG_HOOKS = ['session.start', 'prompt.submit', 'turn.start', 'tool.call']

test.each(HUNG_HOOKS)(
  'Ctrl-C while a %s hook awaits what never settles ends the turn at once, not at hookBudgetMs',
  async (event) => {
    const { box, config, mod } = await hungHook(event, 120_000, "await $.fs.write('hook-started', 'x'); ")
    const { child, done } = startBounded(box, config, mod, 'make a file')
    while (!existsSync(join(box.workspace, 'hook-started'))) await new Promise((r) => setTimeout(r, 20))
    const signalled = Date.now()
    child.kill('SIGINT')
    const run = await done
    expect(run.signal).toBeNull()
    expect(run.code).toBe(130)
    // the user's cancel is not the mod's fault, and the abandoned hook does not run the tool
    expect(run.stderr).not.toContain('hook skipped')
    expect(existsSync(join(box.workspace, 'ran-by-bash'))).toBe(false)
    // not the 120 s budget (with slack for a loaded machine)
    expect(Date.now() - signalled).toBeLessThan(10_000)
  },
  60_000,
)
