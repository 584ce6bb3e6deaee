import { expect, it } from 'vitest'
import { call, everything, mcpContext, textOf } from './helpers.ts'

it('smoke', async () => {
  const { ctx, warnings } = await mcpContext({ servers: { everything: everything() } })
  console.log(ctx.tools.schemas().map((s) => s.name))
  const r = await call(ctx, 'mcp__everything__echo', { message: 'hi' })
  console.log(r, warnings)
  expect(textOf(r)).toContain('hi')
}, 30000)
