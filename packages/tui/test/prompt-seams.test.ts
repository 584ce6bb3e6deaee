// What the prompt box tells `ui/prompt-edit` (65-mod-host.md prompt.edit): the replaced range of the
// box before the edit, what replaced it, the key behind it.
import { describe, expect, test } from 'vitest'
import { describeEdit, keyName } from '../src/prompt-seams.ts'

describe('describeEdit', () => {
  test('typing at the end, deleting, replacing in the middle, a paste', () => {
    expect(describeEdit('hel', 'hell', 4, 'l')).toEqual({
      key: 'l',
      text: 'hell',
      cursor: 4,
      start: 3,
      end: 3,
      inputText: 'l',
    })
    expect(describeEdit('hell', 'hel', 3, 'backspace')).toEqual({
      key: 'backspace',
      text: 'hel',
      cursor: 3,
      start: 3,
      end: 4,
      inputText: '',
    })
    expect(describeEdit('a big cat', 'a small cat', 7)).toEqual({
      text: 'a small cat',
      cursor: 7,
      start: 2,
      end: 5,
      inputText: 'small',
    })
    expect(describeEdit('', 'pasted\ntext', 11)).toMatchObject({
      start: 0,
      end: 0,
      inputText: 'pasted\ntext',
    })
  })

  test('repeated letters: the range stays inside both texts', () => {
    const e = describeEdit('aaa', 'aaaa', 4, 'a')
    expect(e.end).toBeGreaterThanOrEqual(e.start)
    expect('aaa'.slice(0, e.start) + e.inputText + 'aaa'.slice(e.end)).toBe('aaaa')
  })
})

describe('keyName', () => {
  test('printable keys by themselves, editing keys by name, a paste by none', () => {
    expect(keyName('x')).toBe('x')
    expect(keyName('\x7f')).toBe('backspace')
    expect(keyName('\r')).toBe('enter')
    expect(keyName('\x1b[200~hello\x1b[201~')).toBeUndefined()
    expect(keyName('\x1b[A')).toBeUndefined()
  })
})
