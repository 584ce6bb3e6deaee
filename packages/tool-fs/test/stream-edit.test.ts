// `edit` and `write` of a file too big to hold (docs/decisions/0165-streaming-huge-files.md), shown on
// small files by configuration (readStreamMinSize 0, diffMaxChars 0, 4 KiB reads): the streamed call
// gives the loaded call's result, text and meta, and bytes; its failures are the loaded ones and leave
// the file and its folder as they were; read-before-edit holds by content hash. That the streamed path
// ran shows in a byte a loaded edit cannot keep (invalid UTF-8, which decoding turns into U+FFFD).
import { chmod, open, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fsContext, run, stubAgent, tempDir } from './support.ts'

const STREAMED = { readStreamMinSize: 0, diffMaxChars: 0, streamChunkBytes: 4096 }
const LOADED = { diffMaxChars: 0 }

/**
 * A workspace holding `a.txt` = `content` (mode 0640), observed by an agent, and a call as that agent.
 * A text is created by the agent's `write`, which observes its content hash (a streamed read would
 * observe size and mtime only); bytes are written by the test and read.
 */
async function workspace(content: string | Buffer, config: object) {
  const cwd = await tempDir()
  const ctx = await fsContext(config)
  const agent = stubAgent(cwd)
  const call = (name: string, args: object) => run(ctx, name, args, { cwd, agent })
  if (typeof content === 'string') await call('write', { file_path: 'a.txt', content })
  else await writeFile(join(cwd, 'a.txt'), content)
  await chmod(join(cwd, 'a.txt'), 0o640)
  if (typeof content !== 'string') await call('read', { file_path: 'a.txt', limit: 1 })
  const bytes = () => readFile(join(cwd, 'a.txt'))
  return { cwd, ctx, agent, call, bytes }
}

// Long enough for many 4 KiB reads, with sites across read boundaries.
const LF_TEXT = Array.from({ length: 3000 }, (_, i) => `line ${i} ${i % 7 === 0 ? 'needle' : 'hay'}\n`).join(
  '',
)

const CASES: [string, string, object][] = [
  ['one site', LF_TEXT, { file_path: 'a.txt', old_string: 'line 1234 hay\n', new_string: 'one\ntwo\n' }],
  [
    'every site',
    LF_TEXT,
    { file_path: 'a.txt', old_string: 'needle', new_string: 'pin\n', replace_all: true },
  ],
  [
    'a CRLF file (matched on LF, written back with CRLF)',
    LF_TEXT.replaceAll('\n', '\r\n'),
    { file_path: 'a.txt', old_string: 'hay\r\nline 1', new_string: 'x\ny ', replace_all: true },
  ],
  ['a deletion', LF_TEXT, { file_path: 'a.txt', old_string: 'line 2999 hay\n', new_string: '' }],
]

describe('streamed edit', () => {
  it.each(CASES)('%s: the loaded edit result and bytes', async (_, content, args) => {
    const loaded = await workspace(content, LOADED)
    const streamed = await workspace(content, STREAMED)
    const want = await loaded.call('edit', args)
    const got = await streamed.call('edit', args)
    expect(want.isError).toBe(false)
    expect(got.content).toEqual(want.content)
    expect(got.meta).toEqual(want.meta)
    expect((await streamed.bytes()).equals(await loaded.bytes())).toBe(true)
    expect((await stat(join(streamed.cwd, 'a.txt'))).mode & 0o777).toBe(0o640)
    expect(await readdir(streamed.cwd)).toEqual(['a.txt'])
    // The edit observed what it wrote: a second one goes through.
    const again = await streamed.call('edit', {
      file_path: 'a.txt',
      old_string: 'line 0 ',
      new_string: 'L0 ',
    })
    expect(again.isError).toBe(false)
  })

  it('keeps every other byte as it was, invalid UTF-8 included (a loaded edit would decode it)', async () => {
    const content = Buffer.concat([
      Buffer.from('head\n'),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from(LF_TEXT),
    ])
    const { call, bytes } = await workspace(content, STREAMED)
    const result = await call('edit', { file_path: 'a.txt', old_string: 'line 77 needle', new_string: 'X' })
    expect(result.isError).toBe(false)
    const want = Buffer.from(content.toString('latin1').replace('line 77 needle', 'X'), 'latin1')
    expect((await bytes()).equals(want)).toBe(true)
  })

  it.each([
    ['NO_MATCH', { old_string: 'absent', new_string: 'x' }],
    ['AMBIGUOUS_MATCH', { old_string: 'needle', new_string: 'x' }],
    ['NO_CHANGE', { old_string: 'needle', new_string: 'needle' }],
  ])('%s: the loaded failure, the file and its folder untouched', async (code, strings) => {
    const args = { file_path: 'a.txt', ...strings }
    const loaded = await workspace(LF_TEXT, LOADED)
    const streamed = await workspace(LF_TEXT, STREAMED)
    const want = await loaded.call('edit', args)
    const got = await streamed.call('edit', args)
    expect(got.error?.code).toBe(code)
    expect(got.content).toEqual(want.content)
    expect((await streamed.bytes()).toString()).toBe(LF_TEXT)
    expect(await readdir(streamed.cwd)).toEqual(['a.txt'])
  })

  it('TL-13 by content hash: an unread file fails, a touched but unchanged one does not, a changed one is stale', async () => {
    const edit = { file_path: 'a.txt', old_string: 'line 5 hay', new_string: 'five' }
    const unread = await tempDir()
    await writeFile(join(unread, 'a.txt'), LF_TEXT)
    const fresh = await run(await fsContext(STREAMED), 'edit', edit, {
      cwd: unread,
      agent: stubAgent(unread),
    })
    expect(fresh.error?.code).toBe('FS_NOT_OBSERVED')

    const touched = await workspace(LF_TEXT, STREAMED)
    await writeFile(join(touched.cwd, 'a.txt'), LF_TEXT)
    expect((await touched.call('edit', edit)).isError).toBe(false)

    const changed = await workspace(LF_TEXT, STREAMED)
    const other = LF_TEXT.replace('line 9 hay', 'line 9 HAY')
    await writeFile(join(changed.cwd, 'a.txt'), other)
    expect((await changed.call('edit', edit)).error?.code).toBe('FS_STALE')
    expect((await changed.bytes()).toString()).toBe(other)
    expect(await readdir(changed.cwd)).toEqual(['a.txt'])
  })

  it('a file changed by someone else while the edit streams it fails FS_STALE; their change is kept', async () => {
    // 32 MB read 4 KiB at a time: the pass takes long enough to change the file in its middle.
    const big = Buffer.from(`${'x'.repeat(99)}\n`.repeat(320_000) + 'TARGET\n')
    const { cwd, call, bytes } = await workspace(big, STREAMED)
    const edit = call('edit', { file_path: 'a.txt', old_string: 'TARGET', new_string: 'DONE' })
    // Once the replacement has bytes, the start of the file has been read: change it there.
    const started = Date.now()
    for (;;) {
      const temp = (await readdir(cwd)).find((name) => name !== 'a.txt')
      if (temp && (await stat(join(cwd, temp)).catch(() => undefined))?.size) break
      if (Date.now() - started > 20_000) throw new Error('the streamed edit never started writing')
      await new Promise((r) => setTimeout(r, 2))
    }
    const handle = await open(join(cwd, 'a.txt'), 'r+')
    await handle.write('CHANGED', 0)
    await handle.close()
    const result = await edit
    expect(result.error?.code).toBe('FS_STALE')
    const after = await bytes()
    expect(after.subarray(0, 7).toString()).toBe('CHANGED')
    expect(after.subarray(-7).toString()).toBe('TARGET\n')
    expect(await readdir(cwd)).toEqual(['a.txt'])
  }, 60_000)
})

describe('streamed write over a huge file', () => {
  it('the loaded write result and bytes; stale by content hash', async () => {
    const content = LF_TEXT.replace('line 100 hay', 'changed').slice(0, -500)
    const loaded = await workspace(LF_TEXT, LOADED)
    const streamed = await workspace(LF_TEXT, STREAMED)
    const want = await loaded.call('write', { file_path: 'a.txt', content })
    const got = await streamed.call('write', { file_path: 'a.txt', content })
    expect(want.meta).toHaveProperty('summary')
    expect(got.content).toEqual(want.content)
    expect(got.meta).toEqual(want.meta)
    expect((await streamed.bytes()).toString()).toBe(content)
    expect((await stat(join(streamed.cwd, 'a.txt'))).mode & 0o777).toBe(0o640)

    const changed = await workspace(LF_TEXT, STREAMED)
    await writeFile(join(changed.cwd, 'a.txt'), LF_TEXT.replace('line 9 hay', 'line 9 HAY'))
    expect((await changed.call('write', { file_path: 'a.txt', content })).error?.code).toBe('FS_STALE')
  })
})
