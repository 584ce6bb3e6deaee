// The host-raised classic events (65-mod-host.md requirement 10: `classic.StopFailure` on a turn ending in
// error, `classic.Notification` on a permission ask) and the test entry's `modsIdle`.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { error, text, toolCalls } from '@tack/agent/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { stopFailureError } from '../src/events/classic.ts'
import { modsIdle } from '../src/testing.ts'
import { type ModSession, modSession, tempDir, writeMod } from './helpers.ts'

let sessions: ModSession[] = []
afterEach(async () => {
  for (const s of sessions) await s.dispose()
  sessions = []
})

const user = (content: string) => ({ content, source: { kind: 'user' as const } })

async function start(source: string, script: Parameters<typeof modSession>[1]) {
  const out = tempDir()
  const dir = writeMod({ name: 'classic', source: source.replaceAll('OUT', JSON.stringify(out)) })
  const s = await modSession([{ dir }], script)
  sessions.push(s)
  return { s, read: (name: string) => JSON.parse(readFileSync(join(out, name), 'utf8')), out }
}

describe('classic.StopFailure and classic.Notification', () => {
  it('maps a turn error code to Claude Code error words by HTTP status', () => {
    expect(
      [
        'HTTP_401',
        'HTTP_403',
        'HTTP_429',
        'OVERLOADED',
        'HTTP_529',
        'HTTP_400',
        'CONTEXT_TOO_LONG',
        'HTTP_404',
        'HTTP_503',
      ].map(stopFailureError),
    ).toEqual([
      'authentication_failed',
      'authentication_failed',
      'rate_limit',
      'overloaded',
      'overloaded',
      'invalid_request',
      'invalid_request',
      'model_not_found',
      'server_error',
    ])
    expect([undefined, 'NETWORK', 'HTTP_302'].map(stopFailureError)).toEqual([
      'unknown',
      'unknown',
      'unknown',
    ])
  })

  it('a turn ending in a provider error raises classic.StopFailure with the mapped word', async () => {
    const { s, read } = await start(
      `export function register(on) {
        on('classic.StopFailure', async ($, e, next) => { await $.fs.write(OUT + '/stop.json', JSON.stringify(e)); return next(e) })
      }`,
      [error('too many requests', { code: 'HTTP_429', status: 429, transient: false })],
    )
    const result = await s.agent.send(user('hi'))
    expect(result.reason.kind).toBe('error')
    await modsIdle(s.ctx, s.agent)
    expect(read('stop.json')).toMatchObject({ error: 'rate_limit', error_details: expect.any(String) })
  })

  it('a permission ask put to the user raises classic.Notification', async () => {
    const { s, read } = await start(
      `export function register(on) {
        on('tool.check', async () => ({ decision: 'ask' }))
        on('classic.Notification', async ($, e, next) => { await $.fs.write(OUT + '/notice.json', JSON.stringify(e)); return next(e) })
      }`,
      [toolCalls([{ name: 'bash', args: { command: 'echo hi' }, id: 'b1' }]), text('done')],
    )
    await s.agent.send(user('run it'))
    await modsIdle(s.ctx, s.agent)
    expect(read('notice.json')).toEqual({
      message: 'tack needs your permission to use Bash',
      notification_type: 'permission_prompt',
    })
  })
})

describe('modsIdle (the test entry)', () => {
  it('settles only after work a hook left running has written its file', async () => {
    const { s, out } = await start(
      `export function register(on) {
        on('turn.complete', async ($, e, next) => {
          void (async () => { for (let i = 0; i < 20; i++) await $.clock.now(); await $.fs.write(OUT + '/late.txt', 'x') })()
          return next(e)
        })
      }`,
      [text('ok')],
    )
    await s.agent.send(user('hi'))
    await modsIdle(s.ctx, s.agent)
    expect(existsSync(join(out, 'late.txt'))).toBe(true)
  })
})
