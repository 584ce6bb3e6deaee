// `tack mods …`, `--mod DIR` and mods in `tack run` through the real binary against a loopback model
// (80-cli.md §7.2; 65-mod-host.md requirements 1, 10 and 12; docs/decisions/0070-mod-host.md).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { capabilities } from '@tack/mods'
import { afterEach, describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox } from './helpers.ts'
import { writeMod } from './mod-folder.ts'

const GUARD = `import type { Register } from 'claude-code'
export const register: Register = (on) => {
  on('tool.check', { tool: 'Bash' }, async ($, e) => ({ decision: 'deny', reason: 'bash is off: ' + e.input.command }))
  on('turn.complete', async ($, e, next) => {
    const v = await $.session.version()
    await $.fs.write('.mod-out/turn.json', JSON.stringify({ host: v.host, answer: e.answer }))
    return next(e)
  })
  on('command.run', { command: 'hello' }, async ($, e) => ({ text: 'hello ' + e.args + ' from ' + (await $.session.version()).host }))
}
`

let box: Sandbox
let closeServer: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeServer?.()
  closeServer = undefined
})

async function loopConfig(script: NonNullable<Parameters<typeof startLoopbackServer>[0]>['script']) {
  const server = await startLoopbackServer({ script })
  closeServer = () => server.close()
  const config = join(box.root, 'loop.yml')
  await writeFile(
    config,
    `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${server.baseUrl}" }\n`,
  )
  return { server, config }
}

describe('tack mods', () => {
  test('capabilities prints the host report as JSON; check says yes or names what is missing', async () => {
    box = await sandbox()
    const caps = await runTack(['mods', 'capabilities'], { env: box.env, cwd: box.workspace })
    expect(caps.code).toBe(0)
    expect(JSON.parse(caps.stdout)).toEqual(capabilities())

    const good = await writeMod(box.root, 'guard', GUARD)
    const ok = await runTack(['mods', 'check', good], { env: box.env, cwd: box.workspace })
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('loads in tack: yes')
    expect(ok.stdout).toContain('tool.check, turn.complete, command.run')

    const foreign = await writeMod(
      box.root,
      'foreign',
      `export const register = (on) => {
        on('ui.render', async ($, e, next) => next(e))
        on('turn.start', async ($, e, next) => { await $.model.complete({}); return next(e) })
      }`,
    )
    const bad = await runTack(['mods', 'check', foreign], { env: box.env, cwd: box.workspace })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toContain('loads in tack: no')
    expect(bad.stdout).toContain('mod "foreign": $.model is not available in tack; supported nouns:')
    expect(bad.stdout).toContain('mod "foreign": on("ui.render"): tack raises no such event')
    expect(bad.stderr).toBe(`tack: ${foreign}: this mod does not load in tack\n`)
    expect(bad.stderr).not.toMatch(/\n\s+at /)
  })

  test('list and doctor show the mods a run loads; an untrusted workspace holds .tack/mods back', async () => {
    box = await sandbox()
    await writeMod(join(box.tackHome, 'mods'), 'mine', GUARD)
    await writeMod(join(box.workspace, '.tack', 'mods'), 'theirs', GUARD)
    const list = await runTack(['mods', 'list'], { env: box.env, cwd: box.workspace })
    expect(list.code).toBe(0)
    expect(list.stdout).toContain(`mine  ${join(box.tackHome, 'mods', 'mine')}`)
    expect(list.stdout).toContain('loads   yes')
    expect(list.stdout).toContain(
      `not run  ${join(box.workspace, '.tack', 'mods', 'theirs')}: this workspace is not trusted`,
    )
    const trusted = await runTack(['mods', 'list', '--trust'], { env: box.env, cwd: box.workspace })
    expect(trusted.stdout).toContain(`theirs  ${join(box.workspace, '.tack', 'mods', 'theirs')}`)
    const doctor = await runTack(['doctor'], { env: box.env, cwd: box.workspace })
    expect(doctor.stdout).toMatch(/mod\s+mine — /)
    expect(doctor.stdout).toMatch(/mod events\s+session\.start, /)
    expect(doctor.stdout).toMatch(/mod nouns\s+fs \(read, write/)
  })
})

describe('tack run with mods', () => {
  test('--mod DIR: a tool.check deny stops bash, turn.complete sees the answer and host tack', async () => {
    box = await sandbox()
    const mod = await writeMod(box.root, 'guard', GUARD)
    const { config } = await loopConfig([
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'touch made-by-bash' } }] },
      { kind: 'text', text: 'all done' },
    ])
    const run = await runTack(
      ['run', '--json', '--config', config, '--model', 'loop/m', '--mod', mod, 'make a file'],
      {
        env: box.env,
        cwd: box.workspace,
      },
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const result = jsonLines(run.stdout).find((l) => l.type === 'tool/result') as {
      data: { isError: boolean; content: { text: string }[] }
    }
    expect(result.data.isError).toBe(true)
    expect(result.data.content[0].text).toContain('bash is off: touch made-by-bash')
    await expect(readFile(join(box.workspace, 'made-by-bash'))).rejects.toThrow()
    expect(JSON.parse(await readFile(join(box.workspace, '.mod-out', 'turn.json'), 'utf8'))).toEqual({
      host: 'tack',
      answer: 'all done',
    })
  })

  test('a headless slash command answered by command.run prints the answer and calls no model', async () => {
    box = await sandbox()
    const mod = await writeMod(box.root, 'guard', GUARD)
    const { server, config } = await loopConfig([{ kind: 'text', text: 'model answer' }])
    const run = await runTack(
      ['run', '--config', config, '--model', 'loop/m', '--mod', mod, '/hello world'],
      {
        env: box.env,
        cwd: box.workspace,
      },
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('hello world from tack\n')
    expect(server.requests).toHaveLength(0)
  })

  test('a broken mod is one stderr line naming it; a failing hook warns once; the run goes on', async () => {
    box = await sandbox()
    const broken = await writeMod(
      box.root,
      'broken',
      'export const register = () => { throw new Error("bad mod") }',
    )
    const flaky = await writeMod(
      box.root,
      'flaky',
      `export const register = (on) => on('turn.step', async function* () { throw new Error('flaky step') })`,
    )
    const { config } = await loopConfig([
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'true' } }] },
      { kind: 'text', text: 'still fine' },
    ])
    const run = await runTack(
      ['run', '--config', config, '--model', 'loop/m', '--mod', broken, '--mod', flaky, 'hi'],
      { env: box.env, cwd: box.workspace },
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('still fine\n')
    expect(run.stderr).toContain('mod "broken": register() threw: bad mod')
    // two steps, two skips: warned once per mod, event and kind
    expect(run.stderr.match(/mod "flaky": turn\.step hook skipped \(throw\): flaky step/g)).toHaveLength(1)
  })

  test('plugins.mods budgets are validated config', async () => {
    box = await sandbox()
    const config = join(box.root, 'bad.yml')
    await writeFile(config, 'plugins:\n  mods:\n    hookBudgetMs: 0\n')
    const run = await runTack(['mods', 'list', '--config', config], { env: box.env, cwd: box.workspace })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('plugins.mods.hookBudgetMs')
    expect(run.stderr).toContain('1–600000')
  })
})
