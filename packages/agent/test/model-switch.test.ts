// `setAgentModel` (80-cli.md §5.4 `/model`): logged as `agent/model`, used from the next request (whose
// header records the change), and restored when the session is resumed.
import { afterEach, expect, test } from 'vitest'
import { setAgentModel, switchedModelOf } from '../src/index.ts'
import { createTestAgent, SCRIPTED_MODEL, type TestAgent, text } from '../src/testing/index.ts'

let t: TestAgent | undefined
afterEach(async () => {
  await t?.dispose()
  t = undefined
})

test('the next request uses the switched model; a resume restores it over the options', async () => {
  t = await createTestAgent({ script: [text('one'), text('two')] })
  t.ctx.modelAdapters.register(['scripted/other'], t.model.adapter)
  await t.agent.send({ content: 'hi', source: { kind: 'user' } })
  setAgentModel(t.agent, 'scripted/other')
  expect(t.agent.model).toBe('scripted/other')
  await t.agent.send({ content: 'again', source: { kind: 'user' } })
  const models = t.model.requests.map((r) => r.config.model)
  expect(models).toEqual([SCRIPTED_MODEL, 'scripted/other'])
  const switchAt = t.events().findIndex((e) => e.type === 'agent/model')
  expect(t.events()[switchAt].data).toEqual({ model: 'scripted/other' })
  const delta = t
    .events()
    .slice(switchAt)
    .find((e) => e.type === 'request/header-delta')
  expect(JSON.stringify(delta?.data)).toContain('scripted/other')

  const id = t.agent.session.id
  await t.handle.dispose()
  const resumed = await t.ctx.agents.resume(id, { config: { model: SCRIPTED_MODEL } })
  expect(resumed.agent.model).toBe('scripted/other')
  expect(switchedModelOf(resumed.agent)).toBe('scripted/other')
  await resumed.dispose()
})

test('a model not of the form provider/model is refused and nothing is logged', async () => {
  t = await createTestAgent()
  const before = t.agent.session.length
  expect(() => setAgentModel(t!.agent, 'gpt4')).toThrow('model "gpt4" is not of the form provider/model')
  expect(t.agent.session.length).toBe(before)
  expect(switchedModelOf(t.agent)).toBeUndefined()
})
