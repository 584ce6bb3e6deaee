import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cliContext, cliHost } from '../src/cli/context.ts'
import { resolveClaudeContext } from '../src/hooks/claude.ts'
import { resolveTackHome } from '@tack/kernel/home'
import { BaseDirError, isDebug, resolveBase, tackHome } from '../src/host/env.ts'
import { projectHash } from '../src/host/session.ts'
import { tempDir } from './helpers.ts'

const e = (env: Record<string, string>, cwd = '/work') => ({ env, cwd })

describe('R13 base directory and environment', () => {
  it('R13 precedence: tack config base, AGENT_DICE_BASE, CC_DICE_BASE, then the host default', () => {
    const env = { HOME: '/h', AGENT_DICE_BASE: '/a', CC_DICE_BASE: '/c' }
    expect(resolveBase('tack', e(env), '/cfg')).toBe('/cfg')
    expect(resolveBase('claude', e(env))).toBe('/a')
    expect(resolveBase('claude', e({ HOME: '/h', CC_DICE_BASE: '/c' }))).toBe('/c')
    expect(resolveBase('claude', e({ HOME: '/h' }))).toBe('/h/.claude/dice')
    expect(resolveBase('tack', e({ HOME: '/h' }))).toBe('/h/.tack/dice')
    expect(resolveBase('tack', e({ HOME: '/h', TACK_HOME: '/t' }))).toBe('/t/dice')
    expect(resolveBase('pi', e({ HOME: '/h' }))).toBe('/h/.pi/agent/dice')
  })
  it('R13 an empty AGENT_DICE_BASE falls through to CC_DICE_BASE (R27 fix 10); relative values resolve against the cwd', () => {
    expect(resolveBase('codex', e({ HOME: '/h', AGENT_DICE_BASE: '', CC_DICE_BASE: '/c' }))).toBe('/c')
    expect(resolveBase('claude', e({ AGENT_DICE_BASE: 'rel/dice' }, '/w'))).toBe('/w/rel/dice')
  })
  it('TACK_HOME: agent-dice answers exactly as tack does, with the one resolver (docs/decisions/0215-one-tack-home-resolver.md)', () => {
    const cases: Array<Record<string, string>> = [
      { HOME: '/h' },
      { HOME: '/h', TACK_HOME: '/t' },
      { HOME: '/h', TACK_HOME: 'rel/t' },
      { HOME: '/h', TACK_HOME: '../up' },
      { HOME: '/h', TACK_HOME: '' },
      { HOME: '/h', TACK_HOME: '   ' },
    ]
    for (const env of cases) {
      expect(tackHome({ env, cwd: '/w' })).toBe(resolveTackHome(env, { cwd: '/w' }))
    }
    expect(tackHome({ env: { HOME: '/h', TACK_HOME: 'rel/t' }, cwd: '/w' })).toBe('/w/rel/t')
  })
  it('R13 the Codex default is realpath(CODEX_HOME or ~/.codex)/dice', () => {
    const root = tempDir()
    mkdirSync(join(root, 'real'))
    symlinkSync(join(root, 'real'), join(root, 'link'))
    expect(resolveBase('codex', e({ HOME: '/h', CODEX_HOME: join(root, 'link/') }))).toBe(
      join(root, 'real', 'dice'),
    )
    expect(resolveBase('codex', e({ HOME: '/h' }))).toBe('/h/.codex/dice')
  })
  it('R13 no home and no override is an error naming the variables', () => {
    expect(() => resolveBase('claude', e({}))).toThrow(BaseDirError)
    expect(() => resolveBase('claude', e({}))).toThrow('Cannot resolve base dir: set AGENT_DICE_BASE or HOME')
  })
  it('R13 AGENT_DICE_HOST is claude by default, codex or tack; anything else is refused', () => {
    expect(cliHost(e({}))).toBe('claude')
    expect(cliHost(e({ AGENT_DICE_HOST: 'tack' }))).toBe('tack')
    expect(() => cliHost(e({ AGENT_DICE_HOST: 'pi' }))).toThrow(
      'Unknown AGENT_DICE_HOST "pi" (expected claude, codex or tack)',
    )
  })
  it('R13 DEBUG is 1 or a comma list naming agent-dice', () => {
    expect(isDebug({ DEBUG: '1' })).toBe(true)
    expect(isDebug({ DEBUG: 'foo, agent-dice' })).toBe(true)
    expect(isDebug({ DEBUG: 'agent-dicey' })).toBe(false)
    expect(isDebug({})).toBe(false)
  })
})

describe('R16 session id', () => {
  const hook = (env: Record<string, string>) => ({
    ...e({ HOME: '/h', ...env }),
    stdin: '',
    stdout() {},
    stderr() {},
  })
  it('R16 Claude: stdin session_id, then the transcript name, then env vars, then the project hash', () => {
    expect(
      resolveClaudeContext(hook({ AGENT_DICE_SESSION_ID: 'env1' }), {
        session_id: 'stdin1',
        transcript_path: '/p/t1.jsonl',
      }).sessionId,
    ).toBe('stdin1')
    expect(
      resolveClaudeContext(hook({ AGENT_DICE_SESSION_ID: 'env1' }), {
        session_id: '../bad',
        transcript_path: '/p/t1.jsonl',
      }).sessionId,
    ).toBe('t1')
    expect(
      resolveClaudeContext(hook({ AGENT_DICE_SESSION_ID: 'env1', CC_DICE_SESSION_ID: 'env2' }), {}).sessionId,
    ).toBe('env1')
    expect(resolveClaudeContext(hook({ CC_DICE_SESSION_ID: 'env2' }), {}).sessionId).toBe('env2')
    expect(resolveClaudeContext(hook({ PWD: '/proj' }), {}).sessionId).toBe(projectHash(e({ PWD: '/proj' })))
    expect(projectHash(e({ PWD: '/proj' }))).toMatch(/^[0-9a-f]{12}$/)
  })
  it('R16 CLI: --session wins over env; tack has no depth source', async () => {
    const c = cliContext(e({ HOME: '/h', AGENT_DICE_SESSION_ID: 'env1' }), 'tack', 'flag1')
    expect(c.sessionId).toBe('flag1')
    expect(await c.getCurrentDepth()).toBeUndefined()
    expect(cliContext(e({ HOME: '/h', AGENT_DICE_SESSION_ID: 'env1' }), 'codex', undefined).sessionId).toBe(
      'env1',
    )
    expect(() => cliContext(e({ HOME: '/h' }), 'claude', '../x')).toThrow('Invalid session id')
  })
})
