// Checkpoints and rewind through the real binary (docs/decisions/0305-checkpoints-and-rewind.md): a
// scripted session edits two files and runs `echo x > new.txt` over three turns; rewinding to turn 1
// restores all three files byte for byte and forks the conversation there; the old session is still
// listed; the user's `.git` is byte-identical before and after.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, scriptedModel } from './helpers.ts'

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' })

function gitDirDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = join(rel, name)
      if (statSync(join(dir, path)).isDirectory()) walk(path)
      else
        out[path] = createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex')
    }
  }
  walk('')
  return out
}

const edit = (file: string, content: string) => [
  { kind: 'tool-calls', calls: [{ name: 'read', args: { file_path: file } }] },
  { kind: 'tool-calls', calls: [{ name: 'write', args: { file_path: file, content } }] },
]

/** Mixed line ends, a tab, UTF-8, no final newline: anything but plain text would show. */
const B_BYTES = Buffer.from('two\tc\u00e9\r\nlf\nno final newline', 'utf8')

async function threeTurns() {
  const box = await sandbox()
  const ws = box.workspace
  git(ws, 'init', '-q')
  await writeFile(join(ws, 'a.txt'), 'one\r\n')
  await writeFile(join(ws, 'b.txt'), B_BYTES)
  await writeFile(join(ws, '.gitignore'), 'build/\n')
  git(ws, 'add', '.')
  git(ws, 'commit', '-qm', 'init')
  const gitBefore = gitDirDigest(join(ws, '.git'))
  const model = await scriptedModel(box.root, [
    ...edit('a.txt', 'A changed\n'),
    { kind: 'text', text: 'done 1' },
    ...edit('b.txt', 'B changed\n'),
    { kind: 'text', text: 'done 2' },
    { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: 'echo x > new.txt' } }] },
    { kind: 'text', text: 'done 3' },
  ])
  const run = (args: string[]) => runTack(['run', '--model', model, ...args], { env: box.env, cwd: ws })
  for (const [i, args] of [['change a'], ['-c', 'change b'], ['-c', 'make new']].entries()) {
    const r = await run(args)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`done ${i + 1}`)
  }
  expect(await readFile(join(ws, 'new.txt'), 'utf8')).toBe('x\n')
  const sessions = jsonLines(
    (await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: ws })).stdout,
  )
  const list = sessions[0] as unknown as Array<{ id: string }>
  return { box, ws, gitBefore, run, sessionId: list[0]?.id as string }
}

describe('rewind', () => {
  test('three turns, rewind to turn 1: files byte for byte, the conversation forked there, the old session kept, .git untouched', async () => {
    const { box, ws, gitBefore, run, sessionId } = await threeTurns()

    // The list (headless /rewind) names each turn's prompt and what it changed.
    const listed = await run(['-c', '/rewind'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toMatch(/1 {2}change a — \+0 ~1 -0: ~a\.txt/)
    expect(listed.stdout).toMatch(/2 {2}change b — \+0 ~1 -0: ~b\.txt/)
    expect(listed.stdout).toMatch(/3 {2}make new — \+1 ~0 -0: \+new\.txt/)

    const rewound = await runTack(['rewind', '--to', '1'], { env: box.env, cwd: ws })
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(rewound.stdout).toContain('restored a.txt')
    expect(rewound.stdout).toContain('restored b.txt')
    expect(rewound.stdout).toContain('removed new.txt')
    expect(await readFile(join(ws, 'a.txt'), 'latin1')).toBe('one\r\n')
    expect(await readFile(join(ws, 'b.txt'))).toEqual(B_BYTES)
    expect(existsSync(join(ws, 'new.txt'))).toBe(false)
    expect(gitDirDigest(join(ws, '.git'))).toEqual(gitBefore)
    expect(git(ws, 'status', '--porcelain')).toBe('')

    const forkId = /conversation forked before turn 1: session ([0-9a-f-]{36})/.exec(rewound.stdout)?.[1]
    expect(forkId).toBeDefined()
    const all = (await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: ws })).stdout
    const list = JSON.parse(all) as Array<{ id: string; parentSession?: string; turns?: number }>
    expect(list.find((s) => s.id === sessionId)).toBeDefined()
    expect(list.find((s) => s.id === forkId)).toMatchObject({ parentSession: sessionId })
    // The fork holds the conversation before turn 1: no turn of the old one.
    const shown = await runTack(['sessions', 'export', forkId as string], { env: box.env, cwd: ws })
    expect(shown.stdout).not.toContain('change a')
    expect(shown.stdout).not.toContain('turn/start')
    const old = await runTack(['sessions', 'export', sessionId], { env: box.env, cwd: ws })
    expect(old.stdout).toContain('make new')
    // The log records each turn's checkpoint: rewind is a projection of it.
    expect(old.stdout.match(/"type":"checkpoint\/taken"/g)?.length).toBe(3)
  })

  test('--files-only to turn 3 removes only new.txt and forks nothing; --conversation-only leaves the files', async () => {
    const { box, ws, sessionId } = await threeTurns()
    const files = await runTack(['rewind', '--to', '3', '--files-only'], { env: box.env, cwd: ws })
    expect(files.code, files.stderr).toBe(0)
    expect(files.stdout).toMatch(
      /^files as they were before turn 3:\n {2}removed new\.txt\nthe files as they were before this rewind are kept; to write them back:\n {2}git --git-dir=\S+ --work-tree=\. checkout [0-9a-f]{40} -- \.\n$/,
    )
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('A changed\n')
    const talk = await runTack(['rewind', '--to', '2', '--conversation-only'], { env: box.env, cwd: ws })
    expect(talk.code, talk.stderr).toBe(0)
    expect(talk.stdout).toMatch(
      /^conversation forked before turn 2: session ([0-9a-f-]{36})\n\(continue it with tack -r \1\)\n$/,
    )
    expect(await readFile(join(ws, 'b.txt'), 'utf8')).toBe('B changed\n')
    // The fork is now the workspace's latest session (one turn); -r names the one rewound from.
    const bad = await runTack(['rewind', '--to', '9', '-r', sessionId], { env: box.env, cwd: ws })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toBe('tack: rewind: no turn 9 in this session (turns: 1–3)\n')
    const flags = await runTack(['rewind', '--files-only', '--conversation-only'], { env: box.env, cwd: ws })
    expect(flags.code).toBe(2)
    expect(flags.stderr).toContain('--files-only and --conversation-only exclude each other')
    const help = await runTack(['rewind', '--help'], { env: box.env, cwd: ws })
    expect(help.stdout).toMatch(/^usage: tack rewind \[--to TURN\]/)
  })
})
