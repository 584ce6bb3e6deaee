// `@path` mentions through the real binary (85-skills-and-commands.md I1,
// docs/decisions/0280-file-mentions.md): `tack run "explain @src/a.ts"` with the scripted model sends the
// file as `read` shows it once per request, and the session log records it once (one `context/message`
// from plugin:fs after the `user/message`) across a turn of two steps; a folder gives its listing; an
// unknown path stays text and nothing is said; a path that exists but may not reach the model (outside
// the workspace, a FIFO, a symlink to /dev/zero, an image, tack's own folder, a deny rule) is said in one
// line on stderr and not attached; a huge file is cut at `mentionMaxBytes` with read's note; piped stdin
// is data and reads no mention; past `mentionMaxFiles` the rest stay text with a note.
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { jsonLines, runTack, type Sandbox, sandbox, scriptedModel } from './helpers.ts'

async function workspace(): Promise<Sandbox> {
  const box = await sandbox()
  const ws = box.workspace
  await mkdir(join(ws, 'src'), { recursive: true })
  await mkdir(join(ws, 'my notes'), { recursive: true })
  await writeFile(join(ws, 'src', 'a.ts'), 'export const marker = "alpha-bravo-42"\nexport const two = 2\n')
  await writeFile(join(ws, 'src', 'b.ts'), 'export const b = 1\n')
  await writeFile(join(ws, 'my notes', 'a b.txt'), 'spaced notes here\n')
  return box
}

async function run(
  box: Sandbox,
  task: string,
  script: readonly unknown[],
  extra: string[] = [],
  input?: string,
) {
  const model = await scriptedModel(box.root, script)
  const result = await runTack(['run', '--json', '--model', model, ...extra, task], {
    env: box.env,
    cwd: box.workspace,
    ...(input !== undefined ? { input } : {}),
  })
  const file = `${model.slice('scripted/'.length)}.requests.jsonl`
  const requests = (await readFile(file, 'utf8').catch(() => ''))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.stringify((JSON.parse(line) as { messages: unknown }).messages))
  return { result, requests, events: jsonLines(result.stdout) }
}

const count = (text: string, part: string) => text.split(part).length - 1
const ok = [{ kind: 'text', text: 'ok' }]

describe('@path mentions through the real binary (85-skills-and-commands.md I1)', () => {
  test('a mention attaches the file as read shows it: once per request, once in the log across two steps', async () => {
    const box = await workspace()
    const { result, requests, events } = await run(box, 'explain @src/a.ts, please', [
      { kind: 'tool-calls', calls: [{ name: 'glob', args: { pattern: '*.ts', path: 'src' } }] },
      { kind: 'text', text: 'explained' },
    ])
    expect(result.code, result.stderr).toBe(0)
    expect(requests).toHaveLength(2)
    for (const sent of requests) {
      expect(count(sent, '1\\texport const marker = \\"alpha-bravo-42\\"\\n2\\texport const two = 2')).toBe(1)
      expect(sent).toContain('explain @src/a.ts, please')
      expect(sent).toContain('context source=\\"plugin:fs\\"')
    }
    const types = events.map((e) => e.type)
    const at = types.indexOf('user/message')
    expect(types[at + 1]).toBe('context/message')
    const carrying = events.filter((e) => JSON.stringify(e).includes('alpha-bravo-42'))
    expect(carrying.map((e) => e.type)).toEqual(['context/message'])
    expect(JSON.stringify(carrying[0])).toContain('@src/a.ts (file src/a.ts):')
    expect(result.stderr).not.toContain('not attached')
  })

  test('quoted paths, absolute paths inside, folders; unknown paths and emails stay text, silently', async () => {
    const box = await workspace()
    const { result, requests } = await run(
      box,
      `see @"my notes/a b.txt" and @${box.workspace}/src/b.ts and @src/ and @nowhere.ts, mail me@x.com`,
      ok,
    )
    expect(result.code, result.stderr).toBe(0)
    const [sent] = requests
    expect(sent).toContain('1\\tspaced notes here')
    expect(sent).toContain('1\\texport const b = 1')
    expect(sent).toContain('@src/ (folder src):\\na.ts\\nb.ts')
    expect(sent).not.toContain('nowhere.ts (file')
    expect(result.stderr).toBe('')
  })

  test('hostile and withheld paths are not attached, and stderr says why, one line each', async () => {
    const box = await workspace()
    const ws = box.workspace
    execFileSync('mkfifo', [join(ws, 'pipe')])
    await symlink('/dev/zero', join(ws, 'zero'))
    await writeFile(join(ws, 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    await writeFile(join(ws, 'blob.bin'), Buffer.from([1, 0, 2, 0]))
    await writeFile(join(ws, 'secret.env'), 'KEY=hunter2\n')
    await writeFile(join(box.root, 'outside.txt'), 'outside words\n')
    // tack's own folder inside the workspace (tack started in $HOME, say): its keys stay out.
    box.env.TACK_HOME = join(ws, 'tack-home')
    await mkdir(join(ws, 'tack-home'), { recursive: true })
    await writeFile(join(ws, 'tack-home', '.env'), 'DEEPSEEK_API_KEY=sk-not-for-the-model\n')
    const { result, requests } = await run(
      box,
      'look: @pipe @zero @shot.png @blob.bin @secret.env @../outside.txt @tack-home/.env',
      ok,
      ['--deny', 'read:secret.env'],
    )
    expect(result.code, result.stderr).toBe(0)
    const [sent] = requests
    for (const words of ['hunter2', 'outside words', 'sk-not-for-the-model', 'plugin:fs'])
      expect(sent).not.toContain(words)
    const lines = result.stderr.split('\n').filter((line) => line.includes('not attached'))
    const says = (mention: string, why: RegExp) =>
      expect(lines.filter((line) => line.includes(`${mention}: not attached`)).join('\n')).toMatch(why)
    says('@pipe', /not a regular file/)
    says('@zero', /outside the workspace .*resolves to \/dev\/zero/)
    says('@shot.png', /image file.*--image/)
    says('@blob.bin', /binary file/)
    says('@secret.env', /deny rule/)
    says('@../outside.txt', /outside the workspace/)
    says('@tack-home/.env', /tack's own folder/)
    expect(lines).toHaveLength(7)
  })

  test('a huge file is cut at mentionMaxBytes with read’s note; past mentionMaxFiles a note', async () => {
    const box = await workspace()
    const line = `${'x'.repeat(99)}\n`
    await writeFile(join(box.workspace, 'huge.txt'), line.repeat(300_000))
    await mkdir(join(box.workspace, '.tack'), { recursive: true })
    await writeFile(
      join(box.workspace, '.tack', 'config.yml'),
      'plugins:\n  fs: { mentionMaxBytes: 4096, mentionMaxFiles: 2 }\n',
    )
    const { result, requests } = await run(box, 'read @huge.txt then @src/a.ts then @src/b.ts', ok)
    expect(result.code, result.stderr).toBe(0)
    const [sent] = requests
    expect(sent).toMatch(
      /stopped at the 4096-byte output limit\. The file continues: read again with offset \d+/,
    )
    expect(sent).toContain('alpha-bravo-42')
    expect(sent).not.toContain('export const b = 1')
    expect(result.stderr).toContain(
      '1 more @ mention not attached: at most 2 per prompt (plugins.fs.mentionMaxFiles)',
    )
  })

  test('piped stdin is data: a mention in it attaches nothing', async () => {
    const box = await workspace()
    const { result, requests } = await run(box, 'summarize this log', ok, [], 'saw @src/a.ts in the log\n')
    expect(result.code, result.stderr).toBe(0)
    expect(requests[0]).toContain('saw @src/a.ts in the log')
    expect(requests[0]).not.toContain('alpha-bravo-42')
  })
})
