// What `tack run` reads as `/compact` (docs/decisions/0060-compaction.md): the whole task, with optional
// instructions and piped stdin adding to them; anything else is a prompt.
import { expect, test } from 'vitest'
import { compactCommand } from '../src/run/compact-command.ts'
import { stdinBlock } from '../src/run/stdin-task.ts'

test('/compact alone, with instructions, or with piped stdin; other input is a prompt', () => {
  expect(compactCommand({ task: '/compact', content: '/compact' })).toBe('')
  expect(compactCommand({ task: ' /compact  keep the API decisions ', content: '' })).toBe(
    'keep the API decisions',
  )
  expect(
    compactCommand({
      task: '/compact',
      content: [
        { type: 'text', text: '/compact' },
        { type: 'text', text: stdinBlock('focus on tests') },
      ],
    }),
  ).toBe(stdinBlock('focus on tests'))
  expect(compactCommand({ task: '/compactor', content: '/compactor' })).toBeUndefined()
  expect(compactCommand({ task: 'please /compact', content: 'please /compact' })).toBeUndefined()
  expect(compactCommand({ task: 'fix the test', content: 'fix the test' })).toBeUndefined()
})
