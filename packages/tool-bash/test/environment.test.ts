import { describe, expect, it } from 'vitest'
import { COMMAND_ENV_OVERRIDES, isSecretName, scrubEnvironment } from '../src/environment.ts'

describe('scrubEnvironment (security 2)', () => {
  it('TL-17 removes variables whose names contain KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL in any case', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/u',
      FOO_TOKEN: 't',
      OPENAI_API_KEY: 'k',
      aws_secret_access_key: 's',
      DbPassword: 'p',
      GOOGLE_APPLICATION_CREDENTIALS: '/c.json',
      keyring: 'x',
    }
    expect(scrubEnvironment(env)).toEqual({ PATH: '/usr/bin', HOME: '/home/u', ...COMMAND_ENV_OVERRIDES })
  })

  it('TL-17 keeps allowed names, matched exactly and case-sensitively', () => {
    const scrubbed = scrubEnvironment({ FOO_TOKEN: 'a', foo_token: 'b', BAR_KEY: 'c' }, ['FOO_TOKEN'])
    expect(scrubbed.FOO_TOKEN).toBe('a')
    expect(scrubbed).not.toHaveProperty('foo_token')
    expect(scrubbed).not.toHaveProperty('BAR_KEY')
  })

  it('TL-17 sets NO_COLOR=1, TERM=dumb, PAGER=cat and GIT_PAGER=cat over existing values', () => {
    const scrubbed = scrubEnvironment({ TERM: 'xterm-256color', PAGER: 'less', NO_COLOR: '' })
    expect(scrubbed).toEqual({ NO_COLOR: '1', TERM: 'dumb', PAGER: 'cat', GIT_PAGER: 'cat' })
  })

  it('TL-17 drops undefined values and leaves the input untouched', () => {
    const env: Record<string, string | undefined> = { A: '1', B: undefined, MY_TOKEN: 'x' }
    const scrubbed = scrubEnvironment(env)
    expect(scrubbed).not.toHaveProperty('B')
    expect(env).toEqual({ A: '1', B: undefined, MY_TOKEN: 'x' })
  })

  it('TL-17 isSecretName matches the fragments anywhere in the name', () => {
    expect(
      ['FOO_TOKEN', 'apikey', 'X_SECRET_Y', 'PASSWORD', 'credentials', 'MONKEY'].map(isSecretName),
    ).toEqual([true, true, true, true, true, true])
    expect(['PATH', 'HOME', 'TOKE', 'PASS', 'LANG'].map(isSecretName)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
