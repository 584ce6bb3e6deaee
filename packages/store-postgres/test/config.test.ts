// The store's configuration (95-fleet.md F1): defaults, configured values, and rejections that name the
// key; URLs shown only with the password redacted.
import { ConfigError } from '@tack/kernel'
import { expect, test } from 'vitest'
import { isPostgresUrl, PostgresStoreConfig, redactUrl } from '../src/index.ts'

test('defaults', () => {
  expect(PostgresStoreConfig.parse({ url: 'postgres://db/tack' })).toEqual({
    url: 'postgres://db/tack',
    poolSize: 4,
    connectTimeoutMs: 10_000,
    queryTimeoutMs: 30_000,
    leaseTimeoutMs: 30_000,
  })
})

test('configured values are kept', () => {
  const config = {
    url: 'postgresql://u@db:5433/t',
    poolSize: 16,
    connectTimeoutMs: 2000,
    queryTimeoutMs: 800,
    leaseTimeoutMs: 5000,
  }
  expect(PostgresStoreConfig.parse(config)).toEqual(config)
})

test.each([
  [{ url: 'mysql://db/tack' }, 'url', /postgres:\/\/ or postgresql:\/\/ URL/],
  [{}, 'url', /postgres/],
  [{ url: 'postgres://db/t', poolSize: 0 }, 'poolSize', /1–100/],
  [{ url: 'postgres://db/t', connectTimeoutMs: 10 }, 'connectTimeoutMs', /100–600000/],
  [{ url: 'postgres://db/t', leaseTimeoutMs: 10 }, 'leaseTimeoutMs', /1000–86400000/],
  [{ url: 'postgres://db/t', queryTimeoutMs: 3_600_001 }, 'queryTimeoutMs', /100–3600000/],
  [{ url: 'postgres://db/t', pool: 3 }, 'pool', /unknown key/],
])('rejected: %j names %s', (config, key, why) => {
  let error: unknown
  try {
    PostgresStoreConfig.parse(config)
  } catch (e) {
    error = e
  }
  expect(error).toBeInstanceOf(ConfigError)
  expect((error as Error).message).toContain(key)
  expect((error as Error).message).toMatch(why)
})

test('redactUrl hides the password wherever libpq takes it', () => {
  expect(redactUrl('postgres://tack:s3cret@db:5432/t')).toBe('postgres://tack:***@db:5432/t')
  expect(redactUrl('postgres://db/t?password=s3cret&sslmode=require')).toBe(
    'postgres://db/t?password=***&sslmode=require',
  )
  expect(redactUrl('postgres://tack@db/t')).toBe('postgres://tack@db/t')
  expect(redactUrl('not a url s3cret')).not.toContain('s3cret')
  expect(isPostgresUrl('postgresql://db/t')).toBe(true)
  expect(isPostgresUrl('http://db/t')).toBe(false)
  // node-postgres would read these as relative URLs (host `base`) or a database name ending in a space
  expect(isPostgresUrl(' postgres://db/t')).toBe(false)
  expect(isPostgresUrl('postgres://db/t\n')).toBe(false)
})
