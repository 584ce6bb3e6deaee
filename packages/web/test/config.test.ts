// `plugins.serve` (config.ts): the defaults, configured values, and values refused with the key named.
import { expect, test } from 'vitest'
import { isLoopback } from '../src/access.ts'
import { serveConfig } from '../src/config.ts'

test('defaults: loopback 127.0.0.1:7433, a read every 500 ms, the token in $TACK_SERVE_TOKEN', () => {
  expect(serveConfig(undefined)).toEqual({
    host: '127.0.0.1',
    port: 7433,
    pollMs: 500,
    tokenEnv: 'TACK_SERVE_TOKEN',
  })
  expect(serveConfig(false)).toEqual(serveConfig({}))
})

test('configured values are kept', () => {
  expect(serveConfig({ host: '10.0.0.5', port: 0, pollMs: 50, tokenEnv: 'MY_TOKEN' })).toEqual({
    host: '10.0.0.5',
    port: 0,
    pollMs: 50,
    tokenEnv: 'MY_TOKEN',
  })
})

test.each([
  [{ port: 65_536 }, 'port'],
  [{ port: -1 }, 'port'],
  [{ port: 1.5 }, 'port'],
  [{ pollMs: 49 }, 'pollMs'],
  [{ pollMs: 60_001 }, 'pollMs'],
  [{ host: '' }, 'host'],
  [{ tokenEnv: '' }, 'tokenEnv'],
  [{ colour: 'red' }, 'colour'],
])('%j is refused, naming %s', (value, key) => {
  expect(() => serveConfig(value)).toThrow(key)
})

test('which addresses are loopback (no token) and which are not', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])
    expect(isLoopback(host)).toBe(true)
  for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'example.com', '128.0.0.1'])
    expect(isLoopback(host)).toBe(false)
})
