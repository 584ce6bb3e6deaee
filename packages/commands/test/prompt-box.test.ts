// The prompt box's seams (80-cli.md §7.3): tack's default beneath the listeners, and a listener's rewrite.
import { createTestAgent, type TestAgent } from '@tack/agent/testing'
import { afterEach, expect, it } from 'vitest'
import { firePromptEdit, firePromptSuggest } from '../src/index.ts'

let t: TestAgent | undefined
afterEach(async () => {
  await t?.dispose()
  t = undefined
})

const edit = { key: 'a', text: 'teh cat', cursor: 7, start: 6, end: 7, inputText: 't' }

it('with no listener the box keeps the edit as typed and a non-blank suggestion shows', async () => {
  t = await createTestAgent()
  expect(await firePromptEdit(t.ctx, t.agent, edit)).toEqual({ text: 'teh cat', cursor: 7 })
  expect(await firePromptSuggest(t.ctx, t.agent, { text: 'run the tests' })).toEqual({ isShown: true })
  expect(await firePromptSuggest(t.ctx, t.agent, { text: '  ' })).toEqual({ isShown: false })
})

it('listeners rewrite the box and hide a suggestion; a blank suggestion never shows', async () => {
  t = await createTestAgent({
    setup: (ctx) => {
      ctx.on('ui/prompt-edit', async (_agent, e, next) => {
        const below = await next()
        return { text: below.text.replace('teh', 'the'), cursor: e.cursor }
      })
      ctx.on('ui/prompt-suggest', async (_agent, s, next) =>
        s.text.startsWith('rm') ? { isShown: false } : next(),
      )
      ctx.on('ui/prompt-suggest', async () => ({ isShown: true }))
    },
  })
  expect(await firePromptEdit(t.ctx, t.agent, edit)).toEqual({ text: 'the cat', cursor: 7 })
  expect(await firePromptSuggest(t.ctx, t.agent, { text: 'rm -rf build' })).toEqual({ isShown: false })
  expect(await firePromptSuggest(t.ctx, t.agent, { text: 'ls' })).toEqual({ isShown: true })
  expect(await firePromptSuggest(t.ctx, t.agent, { text: '' })).toEqual({ isShown: false })
})
