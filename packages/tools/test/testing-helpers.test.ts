import { describe, expect, test } from 'vitest'
import { createGatedTool, slowTool } from '../src/testing/index.ts'
import { call, createToolsContext } from './support.ts'

describe('@tack/tools/testing helpers run on the real pipeline', () => {
  test('TL-6 slowTool answers after its wait and stops when its call is aborted', async () => {
    const ctx = await createToolsContext()
    ctx.tools.register(slowTool)
    expect((await ctx.tools.execute(call('slow', { ms: 0 }))).content).toEqual([
      { type: 'text', text: 'waited 0 ms' },
    ])
    // Abort once the body is running (next() starts it synchronously).
    const controller = new AbortController()
    ctx.on('tools/execute', (_e, next) => {
      const result = next()
      controller.abort()
      return result
    })
    const r = await ctx.tools.execute(call('slow', {}, { signal: controller.signal }))
    // Not the "did not stop when cancelled" variant: the body honoured its signal.
    expect(r.error?.code).toBe('ABORTED')
    expect(r.content).toEqual([{ type: 'text', text: 'The call to "slow" was aborted.' }])
  })

  test('TL-6 a gated tool returns what the test releases', async () => {
    const ctx = await createToolsContext()
    const gated = createGatedTool('gate')
    ctx.tools.register(gated.tool)
    const pending = ctx.tools.execute(call('gate'))
    const signal = await gated.started
    expect(signal.aborted).toBe(false)
    gated.release('opened')
    expect((await pending).content).toEqual([{ type: 'text', text: 'opened' }])
  })
})
