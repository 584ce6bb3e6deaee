// How each permission mode treats the web tools' `network` access (docs/decisions/0050): ask asks,
// workspace-write and yolo let them run, read-only denies them — judged by the declaration alone.
import { ToolsPlugin } from '@tack/tools'
import { mountApprover } from '@tack/tools/testing'
import { Context } from '@tack/kernel'
import { type PermissionMode, PermissionsPlugin } from '@tack/permissions'
import { describe, expect, it } from 'vitest'
import { createWebToolsPlugin } from '../src/plugin.ts'
import { call, html, serve, textOf } from './helpers.ts'

async function moded(mode: PermissionMode) {
  const ctx = new Context()
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(createWebToolsPlugin(), { allowLoopback: true, env: {} })
  await ctx.plugin(PermissionsPlugin, { mode })
  return ctx
}

describe('web tools under each permission mode', () => {
  it('workspace-write and yolo fetch without asking', async () => {
    const server = await serve({ '/p': html('<html><body><p>page body</p></body></html>') })
    for (const mode of ['workspace-write', 'yolo'] as const) {
      const result = await call(await moded(mode), 'web_fetch', { url: `${server.base}/p` })
      expect(textOf(result), mode).toContain('page body')
    }
    expect(server.hits).toHaveLength(2)
  })

  it('read-only denies web_fetch, naming the network, and nothing is fetched', async () => {
    const server = await serve({ '/p': html('<p>page</p>') })
    const result = await call(await moded('read-only'), 'web_fetch', { url: `${server.base}/p` })
    expect(result.error?.code).toBe('DENIED')
    expect(textOf(result)).toContain('web_fetch reaches the network')
    expect(server.hits).toEqual([])
  })

  it('ask mode asks the approver, with a reason naming the network', async () => {
    const server = await serve({ '/p': html('<p>page</p>') })
    const ctx = await moded('ask')
    const requests = await mountApprover(ctx, { action: 'deny', by: 'user' })
    const result = await call(ctx, 'web_fetch', { url: `${server.base}/p` })
    expect(requests).toHaveLength(1)
    expect(JSON.stringify(requests[0])).toContain('web_fetch reaches the network')
    expect(result.error?.code).toBe('DENIED')
    expect(server.hits).toEqual([])
  })
})
