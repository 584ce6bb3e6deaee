// A rewind never destroys what no checkpoint holds (docs/decisions/0305-checkpoints-and-rewind.md §4):
// ignored files are in no snapshot, so a restore that would have to delete one to put a file back (a file
// the person replaced by a folder now holding an ignored log) refuses, names the path, and forks nothing.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runTack, sandbox, scriptedModel } from './helpers.ts'

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' })

test('rewind refuses to delete an ignored file in a folder that replaced a checkpointed file', async () => {
  const box = await sandbox()
  const ws = box.workspace
  git(ws, 'init', '-q')
  await writeFile(join(ws, '.gitignore'), '*.log\n')
  await writeFile(join(ws, 'logs'), 'a file once\n')
  git(ws, 'add', '.')
  git(ws, 'commit', '-qm', 'init')
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A\n' } }] },
    { kind: 'text', text: 'done 1' },
  ])
  const first = await runTack(['run', '--model', model, '--allow', 'write', 'make a'], {
    env: box.env,
    cwd: ws,
  })
  expect(first.code, first.stderr).toBe(0)
  // By hand, after the session: the file becomes a folder whose only content is ignored.
  await rm(join(ws, 'logs'))
  await mkdir(join(ws, 'logs'))
  await writeFile(join(ws, 'logs', 'debug.log'), 'PRECIOUS\n')

  const rewound = await runTack(['rewind', '--to', '1'], { env: box.env, cwd: ws })
  expect(rewound.code).toBe(1)
  expect(rewound.stderr).toContain('logs')
  expect(rewound.stdout).not.toContain('conversation forked')
  expect(await readFile(join(ws, 'logs', 'debug.log'), 'utf8')).toBe('PRECIOUS\n')
  expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('A\n')
})
