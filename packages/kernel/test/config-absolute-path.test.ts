// Schema.absolutePath: the field behind every configured folder (scratch, homes, data folders).
import { describe, expect, test } from 'vitest'
import { ConfigError, Schema } from '../src/index.ts'

const Paths = Schema.object({
  scratch: Schema.absolutePath({ default: '/tmp/scratch', description: 'a folder with a default' }),
  home: Schema.absolutePath({ description: 'an optional folder' }).optional(),
})

describe('Schema.absolutePath', () => {
  test('takes the default, or a configured absolute path; an optional one stays absent', () => {
    expect(Paths.parse({})).toEqual({ scratch: '/tmp/scratch', home: undefined })
    expect(Paths.parse({ scratch: '/var/x', home: '/home/me' })).toEqual({
      scratch: '/var/x',
      home: '/home/me',
    })
  })

  test('rejects a relative path or a non-string, naming the key and what is allowed', () => {
    expect(() => Paths.parse({ home: 'relative/dir' }, 'my.yml')).toThrow(
      new ConfigError([{ path: 'home', message: 'must be an absolute path (got "relative/dir")' }], 'my.yml'),
    )
    expect(() => Paths.parse({ scratch: 7 })).toThrow('scratch')
  })

  test('lists itself for the configuration reference as an absolute path', () => {
    expect(Paths.describe().map((f) => [f.path, f.allowed])).toEqual([
      ['scratch', 'an absolute path'],
      ['home', 'an absolute path (optional)'],
    ])
  })
})
