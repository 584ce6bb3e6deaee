// `tack doctor` lists the problems it exists to diagnose instead of dying on them (80-cli §1.3): an
// unknown model provider, a project naming an endpoint the user has not configured, a bad config
// value, an unusable TACK_HOME — each a failed check with its reason, the other checks still run,
// exit 1 at the end. `tack run` with an unusable TACK_HOME is one line, exit 2. The real binary.
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runTack, sandbox, type TackResult } from './helpers.ts'

/** Doctor got to its last checks: the sandbox line is printed after models, hooks, plugins and mods. */
const RAN_TO_THE_END = /^bash sandbox /m

/** `tack doctor ARGS` in a fresh sandbox whose workspace's `.tack/config.yml` holds `projectConfig`, if given. */
async function doctor(args: readonly string[], projectConfig?: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const box = await sandbox(extraEnv)
  if (projectConfig !== undefined) {
    await mkdir(join(box.workspace, '.tack'))
    await writeFile(join(box.workspace, '.tack', 'config.yml'), projectConfig)
  }
  const r = await runTack(['doctor', ...args], { env: box.env, cwd: box.workspace })
  return { box, r }
}

/** Listed, not crashed: no unexpected error, every check ran, exit 1. */
function expectListedAndFinished(r: TackResult): void {
  expect(r.stderr).not.toContain('unexpected error')
  expect(r.stdout).toMatch(RAN_TO_THE_END)
  expect(r.code).toBe(1)
}

describe('tack doctor on broken set-ups', () => {
  it('an unknown model provider is a listed problem, not an unexpected error', async () => {
    const { r } = await doctor(['--model', 'nope/x'])
    expect(r.stdout).toMatch(/^model +nope\/x → UNUSABLE: unknown model provider "nope"/m)
    expect(r.stdout).toMatch(/problems:\n {2}- nope\/x: unknown model provider "nope"/)
    expectListedAndFinished(r)
  })

  it('a project model on an endpoint the user has not configured is a listed problem', async () => {
    const { r } = await doctor([], 'model: loop/m\n')
    expect(r.stdout).toContain('- loop/m: unknown model provider "loop"')
    expectListedAndFinished(r)
  })

  it('a bad config value is listed as a problem naming file and key; the other files and checks go on', async () => {
    const box = await sandbox()
    await mkdir(box.tackHome)
    await writeFile(join(box.tackHome, 'config.yml'), 'model: scripted/m\n')
    const bad = join(box.root, 'bad.yml')
    await writeFile(bad, 'plugins:\n  tools:\n    maxOutputBytes: -5\n')
    const r = await runTack(['doctor', '--config', bad], { env: box.env, cwd: box.workspace })
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain(`- ${bad}: plugins.tools.maxOutputBytes: unknown key`)
    // The user's own file still loaded: its model was checked.
    expect(r.stdout).toMatch(/^model +scripted\/m → /m)
    expect(r.stdout).toMatch(RAN_TO_THE_END)
    expect(r.code).toBe(1)
  })

  it('a project file that is not YAML and a --config file that is missing: one problem line each', async () => {
    const missing = join(tmpdir(), `tack-doctor-${process.pid}-no-such-folder`, 'nope.yml')
    const { r } = await doctor(['--config', missing, '--model', 'scripted/m'], 'model: [\n')
    const problems = r.stdout.slice(r.stdout.indexOf('problems:\n')).split('\n').slice(1, -1)
    expect(problems).toEqual([
      expect.stringMatching(/^ {2}- .*\/\.tack\/config\.yml:2:1: cannot read YAML: [^\n]+$/),
      `  - ${missing}: (root): file not found`,
    ])
    expectListedAndFinished(r)
  })

  it.each([
    ['/dev/null/x', '/dev/null is not a folder'],
    ['/proc/tack-doctor-test', 'this file system does not allow new folders there'],
  ])('TACK_HOME=%s is a listed problem (no hang, no crash)', async (home, why) => {
    const { r } = await doctor(['--model', 'scripted/m'], undefined, { TACK_HOME: home })
    expect(r.stdout).toContain(`- tack's home folder ${home} cannot be created: ${why}`)
    expect(r.stdout).toMatch(/^model +scripted\/m → /m)
    expectListedAndFinished(r)
  })

  it('tack run with an unusable TACK_HOME is one line naming it, exit 2', async () => {
    const box = await sandbox({ TACK_HOME: '/dev/null/x' })
    const r = await runTack(['run', '--model', 'scripted/m', 'hi'], { env: box.env, cwd: box.workspace })
    expect(r.stderr).toBe(
      "tack: tack's home folder /dev/null/x cannot be created: /dev/null is not a folder; set TACK_HOME to a folder you can write\n",
    )
    expect(r.code).toBe(2)
  })
})
