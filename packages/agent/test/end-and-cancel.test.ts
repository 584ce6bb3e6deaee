import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { createTestAgent, error, hang, maxTokens, text, toolCalls } from '@tack/agent/testing'
import { defineTool, registerTool } from '@tack/tools'
import type { SessionEvent } from '@tack/session'
import { deferred, plugin, shape, user, waitForEvent } from './helpers.ts'

const slow = defineTool({
  name: 'slow',
  description: 'waits until aborted',
  parameters: { type: 'object', properties: { id: { type: 'string' } } } as const,
  execute: (_args, call) =>
    new Promise<string>((resolve) => {
      call.signal.addEventListener('abort', () => resolve('stopped early'), { once: true })
    }),
})

describe('turn end reasons', () => {
  test('AL-19 dispose during a failing stream → disposed', async () => {
    const t = await createTestAgent({ script: [hang({ text: 'x' })] })
    const p = t.agent.send(user('go'))
    await waitForEvent(t.agent.session, (e) => e.type === 'assistant/chunk')
    const disposing = t.dispose()
    expect((await p).reason).toEqual({ kind: 'disposed' })
    await disposing
  })

  test('AL-19 cancel racing a stream error → aborted', async () => {
    const t = await createTestAgent({
      script: [error('server exploded', { afterChunks: 1 })],
      setup: (ctx) => {
        ctx.on('session/event', (_s, e) => {
          if (e.type === 'assistant/chunk') t.agent.cancel()
        })
      },
    })
    const outcome = await t.agent.send(user('go'))
    expect(outcome.reason).toEqual({ kind: 'aborted' })
    await t.dispose()
  })

  test('AL-19 final step finishing with length → max-tokens; an error outranks it', async () => {
    const t = await createTestAgent({
      script: [maxTokens('cut off'), error('bad', { code: 'PROVIDER_DOWN' })],
    })
    expect((await t.agent.send(user('1'))).reason).toEqual({ kind: 'max-tokens' })
    expect((await t.agent.send(user('2'))).reason).toMatchObject({
      kind: 'error',
      code: 'PROVIDER_DOWN',
      message: 'bad',
    })
    await t.dispose()
  })

  test('AL-23 three calls cancelled during the first: three results, a balanced surface, aborted', async () => {
    const t = await createTestAgent({
      script: [
        toolCalls([
          { name: 'slow', args: { id: '1' } },
          { name: 'slow', args: { id: '2' } },
          { name: 'slow', args: { id: '3' } },
        ]),
      ],
      setup: (ctx) => registerTool(ctx, slow),
    })
    const p = t.agent.send(user('go'))
    t.ctx.on('tools/execute', async (_exec, next) => {
      queueMicrotask(() => t.agent.cancel())
      return next()
    })
    const outcome = await p
    expect(outcome.reason).toEqual({ kind: 'aborted' })
    const results = t.events().filter((e): e is SessionEvent<'tool/result'> => e.type === 'tool/result')
    expect(results).toHaveLength(3)
    expect(results[0].data.content).toEqual([{ type: 'text', text: 'stopped early' }])
    expect(results.slice(1).map((r) => r.data.error?.code)).toEqual(['ABORTED', 'ABORTED'])
    const surface = t.agent.session.surface()
    expect(t.agent.session.toolPairingBalancedAfter(surface.at(-1)!.seq)).toBe(true)
    expect(shape(t.events()).slice(-2)).toEqual(['step/end', 'turn/end'])
    await t.dispose()
  })

  test('AL-23 cancel drops queued prompts (resolved aborted without a turn) and held steering, keeps injections', async () => {
    const t = await createTestAgent({ script: [hang()] })
    const p1 = t.agent.send(user('running'))
    await waitForEvent(t.agent.session, (e) => e.type === 'step/start')
    const p2 = t.agent.send(user('queued'))
    t.agent.steer(user('held steer'))
    t.agent.inject(plugin('ci', 'held inject'))
    t.agent.cancel()
    expect(await p2).toEqual({ reason: { kind: 'aborted' } })
    expect((await p1).reason).toEqual({ kind: 'aborted' })
    await t.agent.whenIdle()
    const types = shape(t.events())
    expect(types.slice(-2)).toEqual(['turn/end', 'context/message'])
    expect(t.events().filter((e) => e.type === 'turn/start')).toHaveLength(1)
    expect(JSON.stringify(t.events())).not.toContain('held steer')
    t.agent.cancel() // idle: nothing happens
    expect(t.agent.status).toBe('idle')
    await t.dispose()
  })

  test('AL-24 dispose during a long bash command resolves only after its process group is gone', async () => {
    let pid = 0
    const started = deferred()
    const t = await createTestAgent({
      script: [toolCalls([{ name: 'sleeper', args: {} }])],
      setup: (ctx) =>
        registerTool(
          ctx,
          defineTool({
            name: 'sleeper',
            description: 'runs a long bash command in its own process group',
            parameters: { type: 'object', properties: {} } as const,
            execute: (_a, call) => {
              const child = spawn('bash', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' })
              pid = child.pid ?? 0
              started.resolve()
              return new Promise<string>((resolve) => {
                // a kill ladder: TERM the group, then wait for the leader to exit
                const kill = () => process.kill(-pid, 'SIGTERM')
                if (call.signal.aborted) kill()
                else call.signal.addEventListener('abort', kill, { once: true })
                child.on('exit', () => {
                  const poll = () => (groupAlive(pid) ? setTimeout(poll, 20) : resolve('killed'))
                  poll()
                })
              })
            },
          }),
        ),
    })
    const p = t.agent.send(user('go'))
    await started.promise
    await t.dispose()
    expect((await p).reason).toEqual({ kind: 'disposed' })
    expect(pid).toBeGreaterThan(0)
    expect(groupAlive(pid)).toBe(false)
    expect(t.events().some((e) => e.type === 'tool/result')).toBe(true)
  })

  test('AL-24 after dispose: late inject refused and appends nothing; send/steer/inject throw; second dispose resolves', async () => {
    let lateInject: (() => void) | undefined
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/session-start', (agent) => {
          lateInject = () => agent.inject(plugin('late', 'too late'))
        })
      },
    })
    const seen: string[] = []
    t.ctx.on('session/event', (_s, e) => seen.push(e.type))
    await t.dispose()
    expect(() => lateInject?.()).toThrow(expect.objectContaining({ name: 'AgentDisposedError' }))
    expect(() => t.agent.send(user('x'))).toThrow(/disposed/)
    expect(() => t.agent.steer(user('x'))).toThrow(/disposed/)
    await t.dispose()
    expect(seen).toEqual([])
    expect(t.agent.status).toBe('disposed')
  })

  test('AL-24 agent/disposed carries the cause; tracked detached work is drained before dispose resolves', async () => {
    let drained = false
    let cause = ''
    const t = await createTestAgent({
      setup: (ctx) => {
        ctx.on('agent/disposed', (agent, c) => {
          cause = c
          ctx.agents.trackDetached(
            agent,
            new Promise<void>((r) =>
              setTimeout(() => {
                drained = true
                r()
              }, 30),
            ),
          )
        })
      },
    })
    await t.handle.dispose('clear')
    expect(cause).toBe('clear')
    expect(drained).toBe(true)
  })
})

test('AL-19 completed when nothing else applies', async () => {
  const t = await createTestAgent({ script: [text('fine')] })
  expect((await t.agent.send(user('go'))).reason).toEqual({ kind: 'completed' })
  await t.dispose()
})

/**
 * Whether any live process is in group `pgid`. Zombies count as gone: in a container PID 1 may reap
 * orphans late, and `kill -0` still succeeds on a corpse, which made a `kill -0 -pgid` check flaky.
 */
function groupAlive(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1')
    } catch {
      continue
    }
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(group) === pgid && state !== 'Z' && state !== 'X') return true
  }
  return false
}
