// The values a server is handed (`env`, `headers`) and how what it sends back is redacted
// (docs/decisions/0265-mcp-secret-values.md): short values are not secrets, a bearer token is redacted
// with and without its scheme, and base64 payloads are left whole.
import { describe, expect, it } from 'vitest'
import { definitionSecretValues, redactDeep, redactError, redactorOf } from '../src/secret-values.ts'

describe('MCP secret values', () => {
  it('takes env or headers values of at least 8 characters, and a scheme-prefixed token alone', () => {
    expect(
      definitionSecretValues({
        type: 'stdio',
        command: 'x',
        env: { DEBUG: '1', MODE: 'on', TOK: 'abcdefgh12' },
      }),
    ).toEqual(['abcdefgh12'])
    expect(
      definitionSecretValues({
        type: 'http',
        url: 'https://h/mcp',
        headers: { Authorization: 'Bearer tok-12345678' },
      }),
    ).toEqual(['Bearer tok-12345678', 'tok-12345678'])
  })

  it('redacts every string of a result except base64 data, and an error message in place', () => {
    const redact = redactorOf(() => ['tok-12345678'])
    const result = {
      content: [
        { type: 'text', text: 'TOK=tok-12345678' },
        { type: 'image', data: 'tok-12345678', mimeType: 'image/png' },
      ],
      structuredContent: { env: { TOK: 'tok-12345678' } },
    }
    expect(redactDeep(result, redact)).toEqual({
      content: [
        { type: 'text', text: 'TOK=[redacted]' },
        { type: 'image', data: 'tok-12345678', mimeType: 'image/png' },
      ],
      structuredContent: { env: { TOK: '[redacted]' } },
    })
    const error = new TypeError('sent tok-12345678')
    expect(redactError(error, redact)).toBe(error)
    expect(error.message).toBe('sent [redacted]')
  })
})
