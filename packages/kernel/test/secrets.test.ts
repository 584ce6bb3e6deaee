// The secrets registry (`ctx.secrets`, packages/kernel/src/secrets.ts): declarations are effects of
// the declaring plugin, read at any time, withdrawn on dispose.
import { describe, expect, test } from 'vitest'
import { Context, declareSecrets, redactSecrets, secretRedactor } from '../src/index.ts'

describe('ctx.secrets', () => {
  test('a plugin declares variables and files; disposing it withdraws them', async () => {
    const ctx = new Context()
    expect(ctx.secrets.variables()).toEqual([])
    const provider = ctx.plugin({
      name: 'provider',
      apply: (c: Context) => declareSecrets(c, { variables: ['OPENAI_API_KEY', 'SHARED_KEY'] }),
    })
    await provider
    await ctx.plugin({
      name: 'store',
      apply: (c: Context) => {
        declareSecrets(c, { variables: ['SHARED_KEY'], files: ['/data/sessions.db'] })
        // a plugin reads the registry through its own context like any other
        expect(c.secrets.files()).toEqual(['/data/sessions.db'])
      },
    })
    expect(ctx.secrets.variables()).toEqual(['OPENAI_API_KEY', 'SHARED_KEY'])
    expect(ctx.secrets.files()).toEqual(['/data/sessions.db'])
    await provider.dispose()
    expect(ctx.secrets.variables()).toEqual(['SHARED_KEY'])
  })

  test('a declared value is redacted while its plugin is loaded; values under 8 characters never are', async () => {
    const ctx = new Context()
    const mcp = ctx.plugin({
      name: 'mcp',
      apply: (c: Context) => declareSecrets(c, { values: ['literal-token-1', 'short'] }),
    })
    await mcp
    expect(redactSecrets('a literal-token-1 b short', ctx.secrets.values())).toBe('a [redacted] b short')
    // longest first: a secret containing another is replaced whole
    expect(redactSecrets('x abcdefgh-longer y', ['abcdefgh', 'abcdefgh-longer'])).toBe('x [redacted] y')
    await mcp.dispose()
    expect(ctx.secrets.values()).toEqual([])
  })
})

describe('redactSecrets', () => {
  test('a value with quotes, backslashes or newlines is redacted raw and as JSON writes it', () => {
    const secret = 'pa"ss\\word99'
    const pem = '-----BEGIN KEY-----\nAAAA1111\n-----END KEY-----'
    const json = JSON.stringify({ text: `the password is ${secret}`, key: pem })
    const out = redactSecrets(`${json}\nraw: ${secret} ${pem}`, [secret, pem])
    expect(out).toBe(`{"text":"the password is [redacted]","key":"[redacted]"}\nraw: [redacted] [redacted]`)
    // a plain value is unchanged by escaping and redacted once
    expect(redactSecrets('{"k":"plainsecret1"}', ['plainsecret1'])).toBe('{"k":"[redacted]"}')
  })

  test("JSON text in JSON (a tool call's arguments in a --json line) escapes a value twice: redacted too", () => {
    const secret = 'pa"ss\\word99'
    const line = JSON.stringify({
      type: 'tool/call',
      data: { arguments: JSON.stringify({ command: secret }) },
    })
    const out = redactSecrets(line, [secret])
    // read the line, then its arguments: the value is gone
    expect(JSON.parse(JSON.parse(out).data.arguments)).toEqual({ command: '[redacted]' })
  })
})

describe('secretRedactor().openTail', () => {
  test('is the longest end of a text that begins a secret, raw or JSON-escaped, without completing it', () => {
    const redact = secretRedactor(['sk-live-12345678', 'pa"ss\\word99', 'short'])
    expect(redact.openTail('the key is sk-li')).toBe('sk-li'.length)
    expect(redact.openTail('the key is s')).toBe(1)
    expect(redact.openTail('the key is x')).toBe(0)
    // a whole secret is not open: the redactor replaces it
    expect(redact.openTail('the key is sk-live-12345678')).toBe(0)
    // the escaped form as JSON writes it: `pa\"ss`
    expect(redact.openTail('{"text":"pa\\"ss')).toBe('pa\\"ss'.length)
    // values under MIN_SECRET_LENGTH are not secrets here either
    expect(redact.openTail('a sho')).toBe(0)
    expect(redact.openTail('')).toBe(0)
  })
})
