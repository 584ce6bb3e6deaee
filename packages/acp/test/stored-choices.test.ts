// 50-acp.md requirement 7: session/load restores the last switches, whether logged by any host as
// `permission/mode`, `tools/mode`, `agent/model`, or by earlier versions as `acp/config`.
import type { SessionEvent } from '@tack/session'
import { expect, test } from 'vitest'
import { storedChoices } from '../src/server.ts'

const defaults = {
  permissionMode: 'ask',
  toolsMode: 'native',
  model: 'deepseek/deepseek-chat',
  effort: 'default',
} as const
let seq = 0
const event = (type: string, data: unknown) =>
  ({ seq: seq++, type, data, time: 0 }) as unknown as SessionEvent

test('old acp/config entries and the general switch events both restore, the last one winning', () => {
  expect(
    storedChoices(
      [
        event('acp/config', { configId: 'tools_mode', value: 'code' }),
        event('acp/config', { configId: 'model', value: 'openai/gpt-4.1' }),
        event('permission/mode', { mode: 'read-only' }),
      ],
      defaults,
    ),
  ).toEqual({ permissionMode: 'read-only', toolsMode: 'code', model: 'openai/gpt-4.1', effort: 'default' })
  expect(
    storedChoices(
      [
        event('acp/config', { configId: 'model', value: 'openai/gpt-4.1' }),
        event('agent/model', { model: 'anthropic/claude-sonnet-4-5' }),
        event('tools/mode', { mode: 'both' }),
        event('agent/effort', { effort: 'high' }),
      ],
      defaults,
    ),
  ).toEqual({
    permissionMode: 'ask',
    toolsMode: 'both',
    model: 'anthropic/claude-sonnet-4-5',
    effort: 'high',
  })
  expect(storedChoices([], defaults)).toEqual(defaults)
})
