// The picker of a `choose` command result (`/model` alone, 85-skills-and-commands.md I3): the known entries
// at once with the current one selected, later batches added as they arrive without moving the highlight
// or repeating an entry, a failed batch as one line, filtering, and Enter/Esc closing it.
import { describe, expect, test } from 'vitest'
import { CHOICES_LOADING, ChoicePicker } from '../src/components/choice-picker.ts'
import { plain } from './support.ts'

const ENTER = '\r'
const ESC = '\x1b'
const DOWN = '\x1b[B'

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

describe('ChoicePicker', () => {
  test('opens on the current entry; a later batch is added below, deduplicated, keeping the highlight', async () => {
    const later = deferred<{ choices: { value: string }[]; note?: string }>()
    const failed = deferred<{ choices: { value: string }[]; note?: string }>()
    let redraws = 0
    let picked: string | undefined = 'not yet'
    const picker = new ChoicePicker(
      {
        title: 'Choose a model',
        choices: [{ value: 'a/one' }, { value: 'a/two', current: true, detail: 'in use' }],
        more: [() => later.promise, () => failed.promise],
        theme: plain,
        changed: () => redraws++,
      },
      (value) => {
        picked = value
      },
    )
    let lines = picker.render(80)
    expect(lines).toContain(CHOICES_LOADING)
    expect(lines.find((l) => l.startsWith('→'))).toMatch(/a\/two\s+current, in use/)
    later.resolve({ choices: [{ value: 'a/two' }, { value: 'b/three' }] })
    failed.resolve({ choices: [], note: 'c: could not list its models: HTTP 500' })
    await tick()
    expect(redraws).toBe(2)
    lines = picker.render(80)
    expect(lines.filter((l) => l.includes('a/two'))).toHaveLength(1)
    expect(lines.some((l) => l.includes('b/three'))).toBe(true)
    expect(lines).toContain('c: could not list its models: HTTP 500')
    expect(lines).not.toContain(CHOICES_LOADING)
    expect(lines.find((l) => l.startsWith('→'))).toContain('a/two')
    picker.handleInput(DOWN)
    picker.handleInput(ENTER)
    expect(picked).toBe('b/three')
  })

  test('typing filters; Esc closes without a pick', () => {
    let picked: string | undefined = 'not yet'
    const picker = new ChoicePicker(
      {
        title: 'Choose a model',
        choices: [{ value: 'x/alpha' }, { value: 'x/beta' }],
        theme: plain,
        changed: () => {},
      },
      (value) => {
        picked = value
      },
    )
    for (const key of 'bet') picker.handleInput(key)
    const lines = picker.render(80)
    expect(lines).toContain('filter: bet')
    expect(lines.some((l) => l.includes('x/alpha'))).toBe(false)
    picker.handleInput(ESC)
    expect(picked).toBeUndefined()
  })
})
