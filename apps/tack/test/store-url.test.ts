// Which store a run uses (docs/decisions/0340-store-postgres.md): TACK_STORE_URL over plugins.store.url,
// an empty variable as unset, a bad variable refused in one line without its password; and the
// `plugins.store` block's PostgreSQL fields: defaults, configured values, rejections naming the key.
import { ConfigError } from '@tack/kernel'
import { describe, expect, test } from 'vitest'
import { SessionStoreConfig } from '../src/session-store-plugin.ts'
import { storeUrl } from '../src/store-url.ts'

const settings = (store: Record<string, unknown> | false) => ({ plugins: { store } })

describe('storeUrl', () => {
  test('the environment wins over the config; an empty variable is unset; neither is the SQLite file', () => {
    const config = settings({ url: 'postgres://config-db/t' })
    expect(storeUrl(config, { TACK_STORE_URL: 'postgresql://env-db/t' })).toEqual({
      url: 'postgresql://env-db/t',
      from: 'TACK_STORE_URL',
    })
    expect(storeUrl(config, { TACK_STORE_URL: '' })).toEqual({
      url: 'postgres://config-db/t',
      from: 'plugins.store.url',
    })
    expect(storeUrl(settings({}), {})).toBeUndefined()
    expect(storeUrl(settings(false), {})).toBeUndefined()
  })

  test('a TACK_STORE_URL that is not PostgreSQL is one line, its password redacted', () => {
    expect(() => storeUrl(settings({}), { TACK_STORE_URL: 'mysql://u:hunter2-pw@db/t' })).toThrow(
      'TACK_STORE_URL must be a postgres:// or postgresql:// URL (got "mysql://u:***@db/t")',
    )
    expect(() => storeUrl(settings({}), { TACK_STORE_URL: ' postgres://u:hunter2-pw@db/t' })).toThrow(
      'TACK_STORE_URL has spaces around the URL ("postgres://u:***@db/t"); remove them',
    )
  })
})

describe('plugins.store with PostgreSQL fields', () => {
  test('defaults: no url (SQLite), pool of 4, 10 s to connect, 30 s leases', () => {
    const parsed = SessionStoreConfig.parse({})
    expect(parsed.url).toBeUndefined()
    expect(parsed).toMatchObject({
      poolSize: 4,
      connectTimeoutMs: 10_000,
      leaseTimeoutMs: 30_000,
      path: 'sessions.db',
    })
  })

  test('configured values are kept', () => {
    const parsed = SessionStoreConfig.parse({ url: 'postgres://db/t', poolSize: 2, connectTimeoutMs: 500 })
    expect(parsed).toMatchObject({ url: 'postgres://db/t', poolSize: 2, connectTimeoutMs: 500 })
  })

  test.each([
    [{ url: 'sqlite:///x.db' }, 'url'],
    [{ poolSize: 101 }, 'poolSize'],
    [{ connectTimeoutMs: 0 }, 'connectTimeoutMs'],
  ])('rejected: %j names %s', (config, key) => {
    expect(() => SessionStoreConfig.parse(config, '/home/me/.tack/config.yml')).toThrow(ConfigError)
    expect(() => SessionStoreConfig.parse(config, '/home/me/.tack/config.yml')).toThrow(
      new RegExp(`config\\.yml.*${key}|${key}.*config\\.yml`, 's'),
    )
  })
})
