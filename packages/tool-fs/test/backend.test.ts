// The file backend seam (50-acp.md requirement 10): a backend swapped in for one agent gets and puts
// the text of read / write / edit; other agents stay on the local disk; scope and read-before-edit
// (TL-11, TL-13) hold exactly as on the disk.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { type FileBackend, useFileBackends } from '../src/index.ts'
import { fsContext, run, stubAgent, tempDir, textOf, writeTree } from './support.ts'

/** An editor's buffers in memory, keyed by real path; records what went through it. */
function memoryBackend(buffers: Map<string, string>, log: string[]): FileBackend {
  return {
    async readText(path) {
      log.push(`read ${path.real}`)
      const text = buffers.get(path.real)
      if (text === undefined) throw new Error(`no buffer for ${path.real}`)
      return text
    },
    async writeText(path, content) {
      log.push(`write ${path.real}`)
      buffers.set(path.real, content)
    },
  }
}

async function setup() {
  const cwd = await tempDir()
  await writeTree(cwd, { 'a.txt': 'on disk\n' })
  const ctx = await fsContext()
  const agent = stubAgent(cwd)
  const buffers = new Map([[join(cwd, 'a.txt'), 'in the buffer\n']])
  const log: string[] = []
  const backend = memoryBackend(buffers, log)
  const remove = useFileBackends((asked) => (asked === agent ? backend : undefined))
  return { cwd, ctx, agent, buffers, log, remove }
}

it('50-acp.md requirement 10: read, edit and write of the swapped agent go through its backend; the disk is untouched', async () => {
  const { cwd, ctx, agent, buffers, log, remove } = await setup()
  try {
    expect(textOf(await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent }))).toBe('1\tin the buffer')
    const edit = { file_path: 'a.txt', old_string: 'buffer', new_string: 'editor' }
    const edited = await run(ctx, 'edit', edit, { cwd, agent })
    expect(edited.meta).toMatchObject({
      path: 'a.txt',
      hunks: [{ lines: ['-in the buffer', '+in the editor'] }],
    })
    expect((await run(ctx, 'write', { file_path: 'a.txt', content: 'new\n' }, { cwd, agent })).isError).toBe(
      false,
    )
    expect((await run(ctx, 'write', { file_path: 'b.txt', content: 'b\n' }, { cwd, agent })).isError).toBe(
      false,
    )
    expect(buffers.get(join(cwd, 'a.txt'))).toBe('new\n')
    expect(buffers.get(join(cwd, 'b.txt'))).toBe('b\n')
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('on disk\n')
    expect(log.filter((line) => line.startsWith('write'))).toHaveLength(3)
    // Another agent is not the backend's: it reads the disk.
    const other = stubAgent(cwd)
    expect(textOf(await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent: other }))).toBe('1\ton disk')
  } finally {
    remove()
  }
})

it('TL-13 a buffer changed after the read fails FS_STALE (freshness by content hash)', async () => {
  const { cwd, ctx, agent, buffers, remove } = await setup()
  try {
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    buffers.set(join(cwd, 'a.txt'), 'in the buffer, typed on\n')
    const edit = { file_path: 'a.txt', old_string: 'buffer', new_string: 'editor' }
    expect((await run(ctx, 'edit', edit, { cwd, agent })).error?.code).toBe('FS_STALE')
    expect(buffers.get(join(cwd, 'a.txt'))).toBe('in the buffer, typed on\n')
  } finally {
    remove()
  }
})

it('TL-11 a path outside the workspace never reaches the backend; a removed resolver is the disk again', async () => {
  const { cwd, ctx, agent, log, remove } = await setup()
  const outside = await tempDir()
  await writeTree(outside, { 'x.txt': 'x\n' })
  const result = await run(ctx, 'read', { file_path: join(outside, 'x.txt') }, { cwd, agent })
  expect(result.isError).toBe(true)
  expect(log).toEqual([])
  remove()
  expect(textOf(await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent }))).toBe('1\ton disk')
})
