// TL-36: a tools mode switch during a session is logged as `tools/mode` and restored when the session is
// resumed (a new agent object on the same log), over the options it was resumed with.
import { Session, SESSION_FORMAT_VERSION } from '@tack/session'
import { expect, test } from 'vitest'
import { setToolsMode, toolsModeOf } from '../src/index.ts'
import { stubAgent } from '../src/testing/index.ts'

const session = () =>
  new Session({
    header: {
      version: SESSION_FORMAT_VERSION,
      id: 'mode-switch',
      createdAt: new Date(0).toISOString(),
      cwd: '/w',
    },
  })

test('setToolsMode logs tools/mode; a resumed agent on that log takes the last switch', () => {
  const log = session()
  const first = stubAgent(log, { options: { toolsMode: 'native' } })
  expect(toolsModeOf(first)).toBe('native')
  setToolsMode(first, 'code')
  setToolsMode(first, 'both')
  expect(
    log
      .events()
      .filter((e) => e.type === 'tools/mode')
      .map((e) => e.data),
  ).toEqual([{ mode: 'code' }, { mode: 'both' }])
  expect(toolsModeOf(stubAgent(log, { options: { toolsMode: 'native' } }))).toBe('both')
  expect(toolsModeOf(stubAgent(session(), { options: { toolsMode: 'code' } }))).toBe('code')
  expect(toolsModeOf(stubAgent(session()))).toBeUndefined()
})

test('an unknown mode is refused and nothing is logged', () => {
  const log = session()
  const agent = stubAgent(log)
  expect(() => setToolsMode(agent, 'fast' as 'code')).toThrow(
    'unknown tools mode "fast" (expected one of native, code, both)',
  )
  expect(log.events()).toEqual([])
})
