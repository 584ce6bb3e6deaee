// The word before the cursor as a mention (mention-autocomplete.ts; 85-skills-and-commands.md I1):
// `@` and what follows up to the cursor, and inside an open quote a path with spaces.
import { describe, expect, it } from 'vitest'
import { mentionWord } from '../src/mention-autocomplete.ts'

describe('mentionWord', () => {
  it('takes the word before the cursor, its first character as the trigger', () => {
    expect(mentionWord('explain @src/ag')).toEqual({ trigger: '@', query: 'src/ag' })
    expect(mentionWord('@')).toEqual({ trigger: '@', query: '' })
    expect(mentionWord('explain ')).toBeUndefined()
  })

  it('keeps an open quote after the trigger, spaces and all', () => {
    expect(mentionWord('see @"my no')).toEqual({ trigger: '@', query: '"my no' })
    expect(mentionWord('see @"my notes/a b.txt" and')).toEqual({ trigger: 'a', query: 'nd' })
  })
})
