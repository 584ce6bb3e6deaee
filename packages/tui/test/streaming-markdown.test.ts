// A streaming answer is laid out in two parts — its stable start once, its tail on each frame — and must
// look the same as the whole answer laid out at once.
import { describe, expect, test } from 'vitest'
import { stablePrefixLength } from '../src/components/stable-prefix.ts'
import { Transcript } from '../src/components/transcript.ts'
import type { AssistantEntry, SessionView } from '../src/view-model.ts'
import { colour } from './support.ts'

describe('stablePrefixLength', () => {
  test('cuts after the last blank line before an unindented line', () => {
    const text = 'one\n\ntwo\n\nthr'
    expect(text.slice(0, stablePrefixLength(text))).toBe('one\n\ntwo\n\n')
    expect(stablePrefixLength('no blank line yet')).toBe(0)
  })

  test('never inside a fenced code block, nor before an indented continuation', () => {
    const fenced = 'intro\n\n```js\nconst a = 1\n\nconst b = 2\n'
    expect(fenced.slice(0, stablePrefixLength(fenced))).toBe('intro\n\n')
    const indented = '1. item\n\n   more of item one\n'
    expect(stablePrefixLength(indented)).toBe(0)
  })
})

describe('streaming layout', () => {
  const answer = [
    '# Plan',
    '',
    'First a paragraph with **bold** and `code` that is long enough to wrap at sixty columns of width.',
    '',
    '- one',
    '- two',
    '',
    '```ts',
    'const x = 1',
    '',
    'const y = 2',
    '```',
    '',
    'And a closing paragraph.',
  ].join('\n')

  test('split while streaming equals the whole answer laid out at once', () => {
    const entry: AssistantEntry = {
      kind: 'assistant',
      key: '1:1',
      text: answer,
      reasoning: '',
      streaming: true,
    }
    const view = { entries: [entry], queued: [] } as unknown as SessionView
    const streaming = new Transcript(view, colour, 40).render(60)
    entry.streaming = false
    const whole = new Transcript(view, colour, 40).render(60)
    expect(streaming).toEqual(whole)
  })
})
