// An untrusted project config may tune limits, but not choose where the conversation is sent for its
// summary (`summarizationModel`) nor lift the token budget (docs/decisions/0013-workspace-trust.md, 0060-compaction.md).
import { expect, test } from 'vitest'
import { keepHarmless } from '../src/config/untrusted.ts'

test('an untrusted project keeps compaction limits and loses summarizationModel', () => {
  const layer = {
    plugins: {
      compaction: {
        auto: false,
        contextWindow: 32768,
        thresholdRatio: 0.5,
        retainTokens: 4000,
        charsPerToken: 2,
        maxTokens: 1024,
        compactionRetries: 0,
        summarizationModel: 'openai/gpt-4o',
      },
    },
  }
  const { kept, refused } = keepHarmless(layer, {})
  const { summarizationModel: _dropped, ...limits } = layer.plugins.compaction
  expect(kept).toEqual({ plugins: { compaction: limits } })
  expect(refused).toEqual(['plugins.compaction.summarizationModel'])
})

test("an untrusted project cannot set the per-turn token budget (it could lift the user's)", () => {
  const { kept, refused } = keepHarmless(
    { plugins: { agent: { maxTurnTokens: 0, maxIdenticalCalls: 3 } } },
    {},
  )
  expect(kept).toEqual({ plugins: { agent: { maxIdenticalCalls: 3 } } })
  expect(refused).toEqual(['plugins.agent.maxTurnTokens'])
})
