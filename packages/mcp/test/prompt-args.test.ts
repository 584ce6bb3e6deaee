// The arguments and text of MCP prompts run as slash commands (spec 55-mcp.md M10).
import { describe, expect, test } from 'vitest'
import { promptArguments } from '../src/prompt-args.ts'
import { promptText } from '../src/server-prompts.ts'

const CITY = [
  { name: 'city', required: true },
  { name: 'state', required: false },
]

describe('promptArguments', () => {
  test('words fill the declared arguments in order; a quoted group is one word', () => {
    expect(promptArguments('"New York" NY', CITY)).toEqual({
      ok: true,
      values: { city: 'New York', state: 'NY' },
    })
    expect(promptArguments('Paris', CITY)).toEqual({ ok: true, values: { city: 'Paris' } })
  })

  test('more words than arguments join the last one', () => {
    expect(promptArguments('review this whole file', [{ name: 'focus' }])).toEqual({
      ok: true,
      values: { focus: 'review this whole file' },
    })
  })

  test('a missing required argument, or words for a prompt of none, is an error', () => {
    expect(promptArguments('', CITY)).toEqual({
      ok: false,
      message: 'missing city (arguments in order: <city> [state])',
    })
    expect(promptArguments('x', [])).toEqual({ ok: false, message: 'this prompt takes no arguments' })
    expect(promptArguments('', [])).toEqual({ ok: true, values: {} })
  })
})

describe('promptText', () => {
  test("every message's text in order; an embedded text resource's text; a note for an image", () => {
    expect(
      promptText({
        messages: [
          { role: 'user', content: { type: 'text', text: 'first' } },
          { role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: 'file:///a', text: 'the file', mimeType: 'text/plain' },
            },
          },
        ],
      }),
    ).toBe('first\n\n[image of image/png left out]\n\nthe file')
  })
})
