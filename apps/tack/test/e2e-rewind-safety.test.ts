// A rewind never destroys what no checkpoint holds (docs/decisions/0305-checkpoints-and-rewind.md §4):
// ignored files are in no snapshot, so a restore that would have to delete one to put a file back (a file
// the person replaced by a folder now holding an ignored log) refuses, names the path, and forks nothing;
// what a person changed by hand since the session is kept and the rewind says how to get it back; a file
// grown past maxFileBytes since (in no snapshot) is not overwritten, and does not stop later checkpoints.
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

test('hand edits made after the session are kept by a rewind, and the command it prints brings them back', async () => {
  const box = await sandbox()
  const ws = box.workspace
  await writeFile(join(ws, 'a.txt'), 'original\n')
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'by tack\n' } }] },
    { kind: 'text', text: 'done 1' },
  ])
  const first = await runTack(['run', '--model', model, '--allow', 'write', 'change a'], {
    env: box.env,
    cwd: ws,
  })
  expect(first.code, first.stderr).toBe(0)
  await writeFile(join(ws, 'a.txt'), 'hours of hand work\n')
  await writeFile(join(ws, 'notes.md'), 'mine\n')

  const rewound = await runTack(['rewind', '--to', '1', '--files-only'], { env: box.env, cwd: ws })
  expect(rewound.code, rewound.stderr).toBe(0)
  expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('original\n')
  const undo = /^ {2}(git --git-dir=\S+ --work-tree=\. checkout [0-9a-f]{40,64} -- \.)$/m.exec(
    rewound.stdout,
  )?.[1]
  expect(undo, rewound.stdout).toBeDefined()
  // Kept by a ref: a later prune of unreferenced objects does not take it.
  const store = /--git-dir=(\S+)/.exec(undo as string)?.[1] as string
  execFileSync('git', ['--git-dir', store, 'prune', '--expire=now'])
  execFileSync('sh', ['-c', undo as string], {
    cwd: ws,
    env: { PATH: process.env.PATH ?? '', HOME: box.home },
  })
  expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('hours of hand work\n')
  expect(await readFile(join(ws, 'notes.md'), 'utf8')).toBe('mine\n')
})

test('a file grown past maxFileBytes since the session is in no snapshot: rewind refuses to overwrite it', async () => {
  const box = await sandbox()
  const ws = box.workspace
  await writeFile(join(ws, 'data.bin'), 'small\n')
  const config = join(box.root, 'c.yml')
  await writeFile(config, 'plugins:\n  checkpoints:\n    maxFileBytes: 1024\n')
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: 'a.txt', content: 'A\n' } }] },
    { kind: 'text', text: 'done 1' },
  ])
  const first = await runTack(['run', '--config', config, '--model', model, '--allow', 'write', 'make a'], {
    env: box.env,
    cwd: ws,
  })
  expect(first.code, first.stderr).toBe(0)
  const grown = Buffer.alloc(4096, 7)
  await writeFile(join(ws, 'data.bin'), grown)

  const rewound = await runTack(['rewind', '--config', config, '--to', '1', '--files-only'], {
    env: box.env,
    cwd: ws,
  })
  expect(rewound.code).toBe(1)
  expect(rewound.stderr).toContain('data.bin')
  expect(await readFile(join(ws, 'data.bin'))).toEqual(grown)
})

test('a recorded file that grows past maxFileBytes leaves the next checkpoint, which is still taken', async () => {
  const box = await sandbox()
  const ws = box.workspace
  await writeFile(join(ws, 'data.bin'), 'small\n')
  const config = join(box.root, 'c.yml')
  await writeFile(config, 'plugins:\n  checkpoints:\n    maxFileBytes: 1024\n')
  const write = (file: string): unknown[] => [
    { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: file, content: `${file}\n` } }] },
    { kind: 'text', text: `wrote ${file}` },
  ]
  const model = await scriptedModel(box.root, [...write('a.txt'), ...write('b.txt')])
  const run = (args: string[]) =>
    runTack(['run', '--config', config, '--model', model, '--allow', 'write', ...args], {
      env: box.env,
      cwd: ws,
    })
  expect((await run(['one'])).code).toBe(0)
  await writeFile(join(ws, 'data.bin'), Buffer.alloc(4096, 7))
  const second = await run(['-c', 'two'])
  expect(second.code, second.stderr).toBe(0)
  expect(second.stderr).toContain('checkpoint of turn 2 left out 1 file(s)')
  expect(second.stderr).not.toContain('git rm')
  // Turn 2 has a checkpoint of its own: rewinding to it removes b.txt.
  const rewound = await runTack(['rewind', '--config', config, '--to', '2', '--files-only'], {
    env: box.env,
    cwd: ws,
  })
  expect(rewound.code, rewound.stderr).toBe(0)
  expect(rewound.stdout).toContain('removed b.txt')
})

test('a nested repository with no commit yet is left out of checkpoints instead of failing them all', async () => {
  const box = await sandbox()
  const ws = box.workspace
  await writeFile(join(ws, 'a.txt'), 'orig\n')
  await mkdir(join(ws, 'nested'))
  git(join(ws, 'nested'), 'init', '-q')
  await writeFile(join(ws, 'nested', 'draft.txt'), 'mine\n')
  const model = await scriptedModel(box.root, [
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo one > a.txt' } }] },
    { kind: 'text', text: 'done 1' },
  ])
  const first = await runTack(['run', '--model', model, '--allow', 'bash', 'one'], { env: box.env, cwd: ws })
  expect(first.code, first.stderr).toBe(0)
  expect(first.stderr).not.toContain('checkpoint')
  const rewound = await runTack(['rewind', '--to', '1', '--files-only'], { env: box.env, cwd: ws })
  expect(rewound.code, rewound.stderr).toBe(0)
  expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('orig\n')
  expect(await readFile(join(ws, 'nested', 'draft.txt'), 'utf8')).toBe('mine\n')
})
