// An untrusted project config may tune limits, but not choose where the conversation is sent for its
// summary (`summarizationModel`) nor lift the token budget or the loop limits (docs/decisions/0013-workspace-trust.md,
// docs/decisions/0060-compaction.md).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { AgentConfig } from '@tack/agent'
import { expect, test } from 'vitest'
import { AGENT_LIMIT_DEFAULTS, keepHarmless } from '../src/config/untrusted.ts'
import { runTack, sandbox, scriptedModel, textAnswers } from './helpers.ts'

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

test('an untrusted project may only lower the loop limits: 0 (the detector off) and a higher step bound are held back', () => {
  const agent = (a: Record<string, unknown>, userAgent?: Record<string, unknown>) =>
    keepHarmless({ plugins: { agent: a } }, userAgent ? { userAgent } : {})
  expect(agent({ maxIdenticalCalls: 0, maxStepsPerTurn: 20000 })).toEqual({
    kept: {},
    refused: ['plugins.agent.maxIdenticalCalls', 'plugins.agent.maxStepsPerTurn'],
  })
  expect(agent({ maxIdenticalCalls: 3, maxStepsPerTurn: 50 }).kept).toEqual({
    plugins: { agent: { maxIdenticalCalls: 3, maxStepsPerTurn: 50 } },
  })
  expect(agent({ maxIdenticalCalls: 5, maxStepsPerTurn: 10000 }).refused).toEqual([]) // the defaults: no wider
  // the user's own values are the bound when they set them
  expect(
    agent({ maxIdenticalCalls: 4, maxStepsPerTurn: 200 }, { maxIdenticalCalls: 3, maxStepsPerTurn: 100 })
      .refused,
  ).toEqual(['plugins.agent.maxIdenticalCalls', 'plugins.agent.maxStepsPerTurn'])
  // the user turned the detector off: any positive count only tightens it
  expect(agent({ maxIdenticalCalls: 9 }, { maxIdenticalCalls: 0 }).refused).toEqual([])
})

test("the written-out loop-limit defaults are the agent plugin's", () => {
  const defaults = Object.fromEntries(AgentConfig.describe('').map((f) => [f.path, f.default]))
  for (const [field, value] of Object.entries(AGENT_LIMIT_DEFAULTS)) expect(defaults[field]).toBe(value)
})

test('through the binary: an untrusted project turning the loop detector off is named as ignored', async () => {
  const box = await sandbox()
  const model = await scriptedModel(box.root, textAnswers('ok', 'ok'))
  await mkdir(join(box.workspace, '.tack'))
  const project = join(box.workspace, '.tack', 'config.yml')
  await writeFile(project, 'plugins:\n  agent: { maxIdenticalCalls: 0, maxStepsPerTurn: 20000 }\n')
  const r = await runTack(['run', '--model', model, 'go'], { env: box.env, cwd: box.workspace })
  expect(r.code).toBe(0)
  expect(r.stderr).toContain(
    `ignored from ${project}: plugins.agent.maxIdenticalCalls, plugins.agent.maxStepsPerTurn`,
  )
  await writeFile(project, 'plugins:\n  agent: { maxIdenticalCalls: 2, maxStepsPerTurn: 100 }\n')
  const stricter = await runTack(['run', '--model', model, 'go'], { env: box.env, cwd: box.workspace })
  expect({ code: stricter.code, stderr: stricter.stderr }).toEqual({ code: 0, stderr: '' })
})
