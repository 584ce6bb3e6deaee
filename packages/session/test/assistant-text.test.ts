import { expect, test } from 'vitest'
import { Session } from '../src/index.ts'
import { assistantText, lastAssistantText } from '../src/index.ts'

test('SL-9 assistantText joins text blocks only; lastAssistantText reads the last answer, optionally the last non-blank one', () => {
  const s = new Session({ header: { version: 1, id: 's', createdAt: '2026-01-01T00:00:00.000Z', cwd: '/w' } })
  expect(lastAssistantText(s.events())).toBeUndefined()
  s.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
  s.append('step/start', { turn: 1, step: 1 })
  const content = [
    { type: 'reasoning' as const, text: 'hmm' },
    { type: 'text' as const, text: 'the ' },
    { type: 'text' as const, text: 'answer' },
  ]
  expect(assistantText(content)).toBe('the answer')
  s.append('assistant/message', { turn: 1, step: 1, content, finishReason: 'stop' })
  s.append('step/end', { turn: 1, step: 1 })
  s.append('step/start', { turn: 1, step: 2 })
  s.append('assistant/message', {
    turn: 1,
    step: 2,
    content: [{ type: 'text', text: '  ' }],
    finishReason: 'stop',
  })
  expect(lastAssistantText(s.events())).toBe('  ')
  expect(lastAssistantText(s.events(), { nonEmpty: true })).toBe('the answer')
})
