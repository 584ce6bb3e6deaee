// @modelcontextprotocol/server-filesystem over stdio, under the permission plugin: reading is `read`
// and passes, a tool the server marks destructive (write_file) is asked outside yolo — in
// workspace-write too — and nothing is written when the person says no.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PermissionMode, PermissionsPlugin } from '@tack/permissions'
import { mountApprover } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { call, filesystem, mcpContext, textOf } from './helpers.ts'

async function setup(mode: PermissionMode) {
  const root = await mkdtemp(join(tmpdir(), 'tack-mcp-fs-'))
  await writeFile(join(root, 'note.txt'), 'the note')
  const { ctx } = await mcpContext({ servers: { fs: filesystem(root) } })
  await ctx.plugin(PermissionsPlugin, { mode })
  return { ctx, root }
}

describe('server-filesystem', () => {
  it('reads a file through mcp__fs__read_text_file, a read-only tool nobody is asked about', async () => {
    const { ctx, root } = await setup('ask')
    const requests = await mountApprover(ctx, { action: 'deny', by: 'user' })
    const result = await call(ctx, 'mcp__fs__read_text_file', { path: join(root, 'note.txt') })
    // The server answers structuredContent too, and that is what the model sees (spec 55-mcp.md M4).
    expect(JSON.parse(textOf(result))).toEqual({ content: 'the note' })
    expect(requests).toEqual([])
  }, 30_000)

  it('asks before write_file (destructiveHint) even in workspace-write; a no writes nothing', async () => {
    const { ctx, root } = await setup('workspace-write')
    const requests = await mountApprover(ctx, { action: 'deny', by: 'user' })
    const target = join(root, 'new.txt')
    const result = await call(ctx, 'mcp__fs__write_file', { path: target, content: 'x' })
    expect(requests).toHaveLength(1)
    expect(requests[0]?.reason).toBe('mcp__fs__write_file is marked destructive by its server')
    expect(result.error?.code).toBe('DENIED')
    await expect(readFile(target, 'utf8')).rejects.toThrow()
  }, 30_000)

  it('yolo writes without asking', async () => {
    const { ctx, root } = await setup('yolo')
    const requests = await mountApprover(ctx, { action: 'deny', by: 'user' })
    const target = join(root, 'new.txt')
    expect((await call(ctx, 'mcp__fs__write_file', { path: target, content: 'written' })).isError).toBe(false)
    expect(await readFile(target, 'utf8')).toBe('written')
    expect(requests).toEqual([])
  }, 30_000)
})
