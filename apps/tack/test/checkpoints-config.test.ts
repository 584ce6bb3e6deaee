// `plugins.checkpoints` through the real binary (docs/decisions/0305-checkpoints-and-rewind.md): by
// default a turn that writes is checkpointed in $TACK_HOME/checkpoints; `maxFileBytes` and `keep` are
// honoured; `enabled: false` takes none; a bad value names the file and key; an untrusted workspace's
// config cannot turn checkpoints off.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runTack, sandbox, scriptedModel } from './helpers.ts'

const writes = (...files: string[]) =>
  files.flatMap((f, i) => [
    { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: f, content: `${f} ${i}\n` } }] },
    { kind: 'text', text: `wrote ${f}` },
  ])

/** The refs of the one checkpoint store under `tackHome` (empty when there is none). */
function keptRefs(tackHome: string): string[] {
  const root = join(tackHome, 'checkpoints')
  if (!existsSync(root)) return []
  const [store] = readdirSync(root)
  if (!store) return []
  const out = execFileSync('git', ['--git-dir', join(root, store), 'for-each-ref', '--format=%(refname)'], {
    encoding: 'utf8',
  })
  return out.split('\n').filter(Boolean)
}

async function twoTurns(yaml?: string, args: string[] = []) {
  const box = await sandbox()
  const model = await scriptedModel(box.root, writes('one.txt', 'two.txt'))
  const config = yaml ? ['--config', join(box.root, 'c.yml')] : []
  if (yaml) await writeFile(join(box.root, 'c.yml'), yaml)
  const run = (extra: string[]) =>
    runTack(['run', ...config, ...args, '--model', model, ...extra], { env: box.env, cwd: box.workspace })
  return { box, first: await run(['first']), second: await run(['-c', 'second']) }
}

describe('plugins.checkpoints', () => {
  test('default: every turn that writes is checkpointed under $TACK_HOME/checkpoints', async () => {
    const { box, first, second } = await twoTurns()
    expect(first.code, first.stderr).toBe(0)
    expect(second.code, second.stderr).toBe(0)
    expect(keptRefs(box.tackHome)).toHaveLength(2)
  })

  test('configured: keep 1 prunes to the newest; maxFileBytes leaves a larger file out and says so', async () => {
    const box = await sandbox()
    await writeFile(join(box.workspace, 'big.bin'), Buffer.alloc(2048, 1))
    await writeFile(
      join(box.root, 'c.yml'),
      'plugins:\n  checkpoints:\n    keep: 1\n    maxFileBytes: 1024\n',
    )
    const model = await scriptedModel(box.root, writes('one.txt', 'two.txt'))
    const run = (extra: string[]) =>
      runTack(['run', '--config', join(box.root, 'c.yml'), '--model', model, ...extra], {
        env: box.env,
        cwd: box.workspace,
      })
    const first = await run(['first'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.stderr).toContain(
      'checkpoint of turn 1 left out 1 file(s) over plugins.checkpoints.maxFileBytes (1024): big.bin',
    )
    expect((await run(['-c', 'second'])).code).toBe(0)
    expect(keptRefs(box.tackHome)).toHaveLength(1)
  })

  test('enabled: false takes no checkpoint', async () => {
    const { box, first } = await twoTurns('plugins:\n  checkpoints:\n    enabled: false\n')
    expect(first.code, first.stderr).toBe(0)
    expect(existsSync(join(box.tackHome, 'checkpoints'))).toBe(false)
  })

  test('rejected: a bad value names the file and the key', async () => {
    const { first } = await twoTurns('plugins:\n  checkpoints:\n    keep: 0\n')
    expect(first.code).toBe(2)
    expect(first.stderr).toContain('plugins.checkpoints.keep: must be an integer 1–100000 (got 0)')
    expect(first.stderr).toContain('c.yml')
  })

  test("an untrusted workspace's config cannot turn checkpoints off", async () => {
    const box = await sandbox()
    await mkdir(join(box.workspace, '.tack'))
    await writeFile(
      join(box.workspace, '.tack', 'config.yml'),
      'plugins:\n  checkpoints:\n    enabled: false\n',
    )
    const model = await scriptedModel(box.root, writes('one.txt'))
    const r = await runTack(['run', '--model', model, 'go'], { env: box.env, cwd: box.workspace })
    expect(r.code, r.stderr).toBe(0)
    expect(keptRefs(box.tackHome)).toHaveLength(1)
  })
})
