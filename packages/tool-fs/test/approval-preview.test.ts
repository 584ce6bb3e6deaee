// What an approval shows for `write` and `edit` (docs/decisions/0300-approval-shows-the-change.md): the
// tool's dry run, through the real pipeline, gives the question the very hunks the result carries; a
// call that cannot work fails with its own error and no question is put; the preview is cut at
// `plugins.tools.approvalPreviewMaxChars` with a note.
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type ApprovalRequest, ToolsPlugin } from '@tack/tools'
import { mountApprover } from '@tack/tools/testing'
import { Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { FsToolsPlugin } from '../src/index.ts'
import { run, stubAgent, tempDir, writeTree } from './support.ts'

async function askingContext(
  answer: 'allow' | 'deny',
  tools: Record<string, unknown> = {},
  fs: Record<string, unknown> = {},
) {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, tools)
  await ctx.plugin(FsToolsPlugin, fs)
  ctx.on('tools/pre-execute', (exec: { name: string }) =>
    exec.name === 'read' ? { action: 'allow' } : { action: 'ask', reason: 'writes a file' },
  )
  const requests: ApprovalRequest[] = await mountApprover(ctx, { action: answer, by: 'user' })
  return { ctx, requests }
}

const TEXT = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n'

describe('approval preview: write and edit show their dry run', () => {
  it('edit: the question carries the hunks the result then carries, and nothing is written before the answer', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': TEXT })
    const { ctx, requests } = await askingContext('allow')
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    const result = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'five', new_string: 'FIVE' },
      { cwd, agent },
    )
    expect(result.isError).toBe(false)
    expect(requests).toHaveLength(1)
    const preview = requests[0].preview
    expect(preview).toEqual([
      { kind: 'diff', path: 'a.txt', hunks: (result.meta as { hunks: unknown }).hunks },
    ])
    expect(JSON.stringify(preview)).toContain('"-five","+FIVE"')
  })

  it('edit denied: the preview was shown, the file is untouched', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': TEXT })
    const { ctx, requests } = await askingContext('deny')
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    const result = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'two', new_string: '2' },
      { cwd, agent },
    )
    expect(result.error?.code).toBe('DENIED')
    expect(JSON.stringify(requests[0].preview)).toContain('"-two","+2"')
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe(TEXT)
  })

  it('a call that cannot work fails with its own error before any question: not read, changed since, no match', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': TEXT, 'b.txt': TEXT })
    const { ctx, requests } = await askingContext('allow')
    const agent = stubAgent(cwd)
    const unread = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'two', new_string: '2' },
      { cwd, agent },
    )
    expect(unread.error?.code).toBe('FS_NOT_OBSERVED')
    const overwrite = await run(ctx, 'write', { file_path: 'a.txt', content: 'x\n' }, { cwd, agent })
    expect(overwrite.error?.code).toBe('FS_NOT_OBSERVED')
    await run(ctx, 'read', { file_path: 'b.txt' }, { cwd, agent })
    const missing = await run(
      ctx,
      'edit',
      { file_path: 'b.txt', old_string: 'eleven', new_string: '11' },
      { cwd, agent },
    )
    expect([missing.error?.code, missing.content]).toEqual([
      'NO_MATCH',
      [{ type: 'text', text: 'old_string was not found in b.txt.' }],
    ])
    await writeFile(join(cwd, 'b.txt'), `${TEXT}eleven\n`)
    const stale = await run(
      ctx,
      'edit',
      { file_path: 'b.txt', old_string: 'eleven', new_string: '11' },
      { cwd, agent },
    )
    expect(stale.error?.code).toBe('FS_STALE')
    expect(requests).toHaveLength(0)
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe(TEXT)
  })

  it('write: a new file shows its content, an overwrite the hunks its result carries', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': TEXT })
    const { ctx, requests } = await askingContext('allow')
    const agent = stubAgent(cwd)
    const created = await run(ctx, 'write', { file_path: 'new/b.txt', content: 'hello\n' }, { cwd, agent })
    expect(created.isError).toBe(false)
    expect(requests[0].preview).toEqual([{ kind: 'created', path: 'new/b.txt', content: 'hello\n' }])
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    const wrote = await run(
      ctx,
      'write',
      { file_path: 'a.txt', content: TEXT.replace('ten', 'TEN') },
      { cwd, agent },
    )
    expect(requests[1].preview).toEqual([
      { kind: 'diff', path: 'a.txt', hunks: (wrote.meta as { hunks: unknown }).hunks },
    ])
    expect(JSON.stringify(requests[1].preview)).toContain('"-ten","+TEN"')
  })

  it('the preview is cut at approvalPreviewMaxChars with a note; 0 shows none', async () => {
    const cwd = await tempDir()
    const content = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')
    const small = await askingContext('deny', { approvalPreviewMaxChars: 60 })
    await run(small.ctx, 'write', { file_path: 'big.txt', content }, { cwd, agent: stubAgent(cwd) })
    const preview = small.requests[0].preview ?? []
    expect(preview[0]).toEqual({
      kind: 'created',
      path: 'big.txt',
      content: 'line 0\nline 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7',
    })
    expect(preview[1]).toEqual({
      kind: 'text',
      text: '… 92 more lines of the change not shown (plugins.tools.approvalPreviewMaxChars is 60).',
    })
    const none = await askingContext('deny', { approvalPreviewMaxChars: 0 })
    await run(none.ctx, 'write', { file_path: 'big.txt', content }, { cwd, agent: stubAgent(cwd) })
    expect(none.requests).toHaveLength(1)
    expect(none.requests[0].preview).toBeUndefined()
  })

  it('a streamed edit (a file too big to hold) runs the same pass counting only: its counts, or its failure, before the question', async () => {
    const cwd = await tempDir()
    await writeTree(cwd, { 'a.txt': TEXT.repeat(400) })
    // readStreamMinSize 0 and diffMaxChars 0 stream any file (docs/decisions/0165-streaming-huge-files.md).
    const { ctx, requests } = await askingContext('allow', {}, { readStreamMinSize: 0, diffMaxChars: 0 })
    const agent = stubAgent(cwd)
    await run(ctx, 'read', { file_path: 'a.txt' }, { cwd, agent })
    const missing = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'eleven', new_string: '11' },
      { cwd, agent },
    )
    expect(missing.error?.code).toBe('NO_MATCH')
    expect(requests).toHaveLength(0)
    const edited = await run(
      ctx,
      'edit',
      { file_path: 'a.txt', old_string: 'ten', new_string: 'TEN', replace_all: true },
      { cwd, agent },
    )
    expect(edited.isError).toBe(false)
    const note = (requests[0].preview ?? [])[0] as { kind: string; text: string }
    expect(note.kind).toBe('text')
    expect(note.text).toMatch(
      /^No diff \(the file is larger than diffMaxChars \(0 characters\)\): 400 lines removed, 400 added/,
    )
    expect((edited.content[0] as { text: string }).text).toContain(note.text)
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe(TEXT.replaceAll('ten', 'TEN').repeat(400))
  })
})
