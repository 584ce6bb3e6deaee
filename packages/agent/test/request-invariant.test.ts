// SL-19 request invariant: the `llm/stream` listener (`@tack/agent/invariants`) that rebuilds every
// request from its origin session's log and stops one that differs before the model sees it.
import { Context, waterfall } from '@tack/kernel'
import {
  type ContentBlock,
  type EpochHeader,
  type Message,
  registerRequestOrigin,
  requestOriginOf,
  type Session,
  sessionsPlugin,
} from '@tack/session'
import { describe, expect, test } from 'vitest'
import type { LlmRequest, LlmResponse } from '../src/index.ts'
import { devInvariantsEnabled, InvariantError, installRequestInvariant } from '../src/testing/invariants.ts'

const text = (t: string): ContentBlock[] => [{ type: 'text', text: t }]
const user = { kind: 'user' } as const
const plugin = (name: string) => ({ kind: 'plugin', name }) as const

type Request = LlmRequest

/** What the stand-in adapter answers: an empty, finished stream. */
const RESPONSE: LlmResponse = Object.freeze({
  chunks: (async function* () {})(),
  final: Promise.resolve({ content: [], finishReason: 'stop' as const }),
})

async function setup(opts: { requireOrigin?: boolean } = {}) {
  const ctx = new Context()
  await ctx.plugin(sessionsPlugin, {})
  const sent: Request[] = []
  const invariant = installRequestInvariant(ctx, opts)
  const session = await ctx.sessions.create({ cwd: '/w' })
  // The innermost handler stands in for the model adapter.
  const stream = (request: Request) =>
    waterfall(ctx, 'llm/stream', [request, new AbortController().signal], async (r) => {
      sent.push(r)
      return RESPONSE
    })
  return { ctx, session, invariant, sent, stream }
}

const prefix: Message[] = [{ role: 'user', content: text('AGENTS.md says hi') }]
const header: EpochHeader = {
  config: { model: 'm' },
  system: 'You are tack.',
  tools: [{ name: 'read', description: 'r', parameters: {} }],
  messagePrefix: prefix,
}

/** One step the way the loop takes it (AL-7 5–7): boundary + step/start in one frame, header, request. */
function step(session: Session, turn: number, n: number, h: EpochHeader = header): Request {
  const boundary = session.deriveMessages()
  session.append('step/start', { turn, step: n })
  session.recordRequestHeader(h)
  const request: Request = {
    config: h.config,
    system: h.system,
    tools: h.tools,
    messages: [...(h.messagePrefix ?? []), ...boundary],
  }
  registerRequestOrigin(request, session)
  return request
}

/** The InvariantError behind a rejection (the kernel's waterfall wraps listener errors in SeamError). */
async function invariantOf(p: Promise<unknown>): Promise<InvariantError> {
  try {
    await p
  } catch (error) {
    const found = error instanceof InvariantError ? error : (error as Error).cause
    if (found instanceof InvariantError) return found
    throw error
  }
  throw new Error('expected an InvariantError')
}

describe('request invariant', () => {
  test('SL-19 faithful requests of a two-step turn pass and reach the model', async () => {
    const { session, invariant, sent, stream } = await setup({ requireOrigin: true })
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    session.append('user/message', { content: text('read a'), source: user })
    const first = step(session, 1, 1)
    expect(await stream(first)).toBe(RESPONSE)
    const call = { type: 'tool-call' as const, callId: 'c1', name: 'read', arguments: '{}' }
    session.append('assistant/message', { turn: 1, step: 1, content: [call], finishReason: 'tool-calls' })
    session.append('tool/result', { callId: 'c1', name: 'read', content: text('done'), isError: false })
    session.append('step/end', { turn: 1, step: 1 })
    const second = step(session, 1, 2)
    await stream(second)
    expect(sent).toEqual([first, second])
    expect(second.messages).toHaveLength(4)
    expect(invariant.checked).toBe(2)
    expect(requestOriginOf(second)).toBe(session)
  })

  test('SL-19 a loop fault that appends an extra message to the request is caught before the model sees it', async () => {
    const { session, sent, stream } = await setup()
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    session.append('user/message', { content: text('hi'), source: user })
    const request = step(session, 1, 1)
    const faulty = {
      ...request,
      messages: [...request.messages, { role: 'user' as const, content: text('smuggled') }],
    }
    registerRequestOrigin(faulty, session)
    const error = await invariantOf(stream(faulty))
    expect(error.rule).toBe('request')
    expect(error.message).toMatch(/messages: expected length 2, got 3 \(first extra .*smuggled/)
    expect(sent).toEqual([])
  })

  test('SL-19 differences in system, tools, config or an event appended after step/start are named', async () => {
    const { session, stream } = await setup()
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    session.append('user/message', { content: text('hi'), source: user })
    const request = step(session, 1, 1)
    const variants: Array<[Request, RegExp]> = [
      [{ ...request, system: 'You are someone else.' }, /at system: expected "You are tack\."/],
      [{ ...request, system: undefined }, /at system: expected "You are tack\.", got absent/],
      [{ ...request, tools: [] }, /at tools: expected length 1, got 0/],
      [
        { ...request, config: { model: 'm', temperature: 1 } },
        /at config\.temperature: expected absent, got 1/,
      ],
      [{ ...request, messages: request.messages.slice(1) }, /at messages\[0\]\.content\[0\]\.text/],
    ]
    for (const [faulty, message] of variants) {
      registerRequestOrigin(faulty, session)
      expect((await invariantOf(stream(faulty))).message).toMatch(message)
    }
    // A message appended after step/start must not be in this step's request.
    session.append('context/message', { content: text('late'), source: plugin('x') })
    const late = { ...request, messages: [...request.messages, ...session.deriveMessages().slice(-1)] }
    registerRequestOrigin(late, session)
    await expect(invariantOf(stream(late))).resolves.toBeInstanceOf(InvariantError)
  })

  test('SL-19 a surface rewritten before step/start (pre-step compaction) still rebuilds', async () => {
    const { session, invariant, stream } = await setup()
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    const a = session.append('user/message', { content: text('one'), source: user })
    const b = session.append('context/message', { content: text('two'), source: plugin('p') })
    session.append('compact/start' as 'context/message', { fromSeq: a.seq } as never)
    session.append(
      'context/message',
      { content: text('summary'), source: plugin('compaction') },
      { kind: 'replace', fromSeq: a.seq, toSeq: b.seq },
    )
    const request = step(session, 1, 1, { config: { model: 'm' } })
    await stream(request)
    expect(request.messages).toHaveLength(1)
    expect(invariant.checked).toBe(1)
  })

  test('SL-19 the listener is prepended: it runs before listeners registered earlier that answer on their own', async () => {
    const ctx = new Context()
    await ctx.plugin(sessionsPlugin, {})
    let adapterCalls = 0
    ctx.on('llm/stream', async () => {
      adapterCalls++
      return RESPONSE
    })
    installRequestInvariant(ctx)
    const session = await ctx.sessions.create({ cwd: '/w' })
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    const request = step(session, 1, 1)
    const faulty = { ...request, system: 'tampered' }
    registerRequestOrigin(faulty, session)
    await invariantOf(
      waterfall(ctx, 'llm/stream', [faulty, new AbortController().signal], async () => RESPONSE),
    )
    expect(adapterCalls).toBe(0)
  })

  test('SL-19 requests without a registered origin pass (counted) unless requireOrigin is set', async () => {
    const loose = await setup()
    await loose.stream({ config: { model: 'm' }, messages: [] })
    expect(loose.invariant.skipped).toBe(1)
    expect(loose.sent).toHaveLength(1)
    const strict = await setup({ requireOrigin: true })
    expect((await invariantOf(strict.stream({ config: { model: 'm' }, messages: [] }))).message).toMatch(
      /no registered origin/,
    )
  })

  test('SL-19 a request with no step/start or no header in its log is refused', async () => {
    const { session, stream } = await setup()
    const bare = { config: { model: 'm' }, messages: [] }
    registerRequestOrigin(bare, session)
    expect((await invariantOf(stream(bare))).message).toMatch(/no step\/start/)
    session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
    session.append('step/start', { turn: 1, step: 1 })
    expect((await invariantOf(stream(bare))).message).toMatch(/no request header/)
  })

  test('SL-19 devInvariantsEnabled reads TACK_DEV=1 only', () => {
    expect(devInvariantsEnabled({ TACK_DEV: '1' })).toBe(true)
    expect(devInvariantsEnabled({ TACK_DEV: '0' })).toBe(false)
    expect(devInvariantsEnabled({})).toBe(false)
  })
})
