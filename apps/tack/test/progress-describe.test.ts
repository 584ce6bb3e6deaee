// `tack run`'s one-line view of a call (docs/decisions/0200-tools-own-their-presentation.md): drawn from
// the call's resolved presentation only — a command intent, a title, a key argument — never from its name.
import { type CallPresentation, plainPresenter } from '@tack/tools'
import { describe, expect, test } from 'vitest'
import { describeCall } from '../src/progress/reporter.ts'

const shown = (over: Partial<CallPresentation>): CallPresentation => ({
  kind: 'other',
  title: 'frobnicate',
  keyArgument: '',
  locations: [],
  intents: [],
  ...over,
})

describe('describeCall', () => {
  test('a command intent shows the command, its first line and how many more', () => {
    const intents = [{ kind: 'command' as const, command: 'git status\nrm -rf x' }]
    expect(describeCall('frobnicate', '{}', shown({ intents }))).toBe('frobnicate: git status (+1 more line)')
  })

  test("a tool's own title, else its name and key argument, else its name and arguments", () => {
    expect(describeCall('frobnicate', '{}', shown({ title: 'Frobnicate a.txt', keyArgument: 'a.txt' }))).toBe(
      'Frobnicate a.txt',
    )
    expect(describeCall('frobnicate', '{"target":"a.txt"}', shown({ keyArgument: 'a.txt' }))).toBe(
      'frobnicate a.txt',
    )
    expect(describeCall('frobnicate', '{"n":1}', shown({}))).toBe('frobnicate {"n":1}')
    expect(describeCall('gone', '{"n":1}', undefined)).toBe('gone {"n":1}')
  })

  test('a tool no registry knows is shown by its first string argument', () => {
    const raw = '{"n":1,"target":"notes.txt"}'
    expect(describeCall('gone', raw, plainPresenter.presentCall('gone', raw))).toBe('gone notes.txt')
  })
})
