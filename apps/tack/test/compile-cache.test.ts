// Node's module compile cache in $TACK_HOME/cache/compile (docs/decisions/0325-start-up-steps.md), through
// the real binary: a second start reads what the first wrote, and a damaged or unusable cache costs only
// speed — the same answer, nothing on stderr.
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runTack, type Sandbox, sandbox, scriptedModel, textAnswers } from './helpers.ts'

const run = async (box: Sandbox, env: NodeJS.ProcessEnv = box.env) =>
  runTack(['run', '--model', await scriptedModel(box.root, textAnswers('done')), 'hi'], {
    env,
    cwd: box.workspace,
  })

/** Every file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
}

test('a start reads the compiled code the one before wrote under TACK_HOME (the first start, which makes TACK_HOME, runs without)', async () => {
  const box = await sandbox()
  const first = await run(box)
  expect(first.stdout).toBe('done\n')
  const cache = join(box.tackHome, 'cache', 'compile')
  // the launcher never makes TACK_HOME (tack does, with its own errors, when the command needs it)
  expect(existsSync(cache)).toBe(false)
  expect((await run(box)).stdout).toBe('done\n')
  expect(filesUnder(cache).length).toBeGreaterThan(10)
  // Node's own trace of its compile cache says, per module, whether the stored code was taken
  const second = await run(box, { ...box.env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' })
  expect(second.code).toBe(0)
  expect(second.stdout).toBe('done\n')
  expect(second.stderr).toContain(`resolved path ${cache}`)
  expect(second.stderr).toMatch(/V8 code cache for ESM file:\S+\/main\.(mjs|js) was accepted/)
  expect(second.stderr).not.toMatch(/was rejected/)
}, 60_000)

test('a damaged cache and a cache folder that cannot be made cost only speed: same answer, nothing on stderr', async () => {
  const box = await sandbox()
  expect((await run(box)).stdout).toBe('done\n')
  expect((await run(box)).stdout).toBe('done\n')
  const cache = join(box.tackHome, 'cache')
  expect(filesUnder(cache).length).toBeGreaterThan(10)
  for (const file of filesUnder(cache)) writeFileSync(file, 'not compiled code, or a stale one')
  const damaged = await run(box)
  expect(damaged).toMatchObject({ code: 0, stdout: 'done\n', stderr: '' })
  // a file where the cache folder would go: Node cannot make it (as with a read-only TACK_HOME)
  rmSync(cache, { recursive: true })
  writeFileSync(cache, 'in the way')
  const blocked = await run(box)
  expect(blocked).toMatchObject({ code: 0, stdout: 'done\n', stderr: '' })
}, 60_000)

test('TACK_HOME on a file system that allows no folders (/proc) costs only the cache: doctor answers at once', async () => {
  const box = await sandbox()
  const r = await runTack(['doctor', '--model', 'scripted/m'], {
    env: { ...box.env, TACK_HOME: '/proc/tack-compile-cache-test' },
    cwd: box.workspace,
  })
  // before the launcher made the cache folders itself, Node's recursive mkdir never returned here
  expect(r.stdout).toContain("tack's home folder /proc/tack-compile-cache-test cannot be created")
}, 20_000)
