// A scripted coding session shaped like the agent loop's log: turns of several steps, each streamed
// as text/reasoning/tool-call deltas, most steps calling tools whose results are file-sized, and the
// batch boundaries where the loop flushes (after the request header, after each tool/call, at
// turn/end — 20-agent-loop.md, SL-24). Deterministic for a given seed.
import { type EpochHeader, type SessionEvent, type SessionHeader, Session } from '@tack/session'

/** mulberry32: a small seeded PRNG, so every run measures the same log. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = (
  'the file function returns value when test fails because import path config session event ' +
  'store append load fold header tool result read write edit grep glob bash step turn model'
).split(' ')

export function words(random: () => number, chars: number): string {
  let out = ''
  while (out.length < chars) out += `${WORDS[Math.floor(random() * WORDS.length)]} `
  return out.slice(0, chars)
}

const clock = { now: () => Date.UTC(2025, 0, 1) }
const between = (random: () => number, lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))

export function newHeader(id: string): SessionHeader {
  return { version: 1, id, createdAt: '2025-01-01T00:00:00.000Z', cwd: '/work/project' }
}

const TOOLS = ['read', 'grep', 'edit', 'bash'].map((name) => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
}))

/** Builds sessions step by step and remembers where the loop would flush. */
export class ScriptedLog {
  readonly session: Session
  /** Seq boundaries where the loop flushes: batches are `[cuts[i], cuts[i+1])`. */
  readonly cuts: number[] = [0]
  readonly #random: () => number
  #turn = 0
  #step = 0
  #call = 0
  #system = 'You are tack, a coding agent.\nBe brief.\nWorkspace: /work/project'

  constructor(id: string, seed = 1) {
    this.session = new Session({ header: newHeader(id), clock })
    this.#random = rng(seed)
  }

  get steps(): number {
    return this.#step
  }

  /** One user turn of `steps` steps (the last answers in text), closed by turn/end. */
  turn(steps = between(this.#random, 1, 8)): void {
    const s = this.session
    const turn = ++this.#turn
    s.append('turn/start', { turn, trigger: { kind: 'message' } })
    s.append('user/message', {
      content: [{ type: 'text', text: words(this.#random, 200) }],
      source: { kind: 'user' },
    })
    for (let step = 1; step <= steps; step++) this.step(turn, step, step < steps)
    s.append('turn/end', { turn, reason: { kind: 'completed' } })
    this.#flush()
  }

  /** Opens a turn for `step` calls to add to (the projection benchmark's endless turn). */
  openTurn(): number {
    const turn = ++this.#turn
    this.session.append('turn/start', { turn, trigger: { kind: 'message' } })
    this.session.append('user/message', { content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } })
    return turn
  }

  /** One step: header, streamed answer, and (when `tools`) one to three tool calls with results. */
  step(turn: number, step: number, tools: boolean): void {
    const s = this.session
    const random = this.#random
    this.#step++
    s.append('step/start', { turn, step })
    // Now and then a system line changes, so the log carries header deltas as well as the snapshot.
    if (random() < 0.02) this.#system = this.#system.replace(/\n[^\n]*$/, `\nNote ${this.#step}`)
    const header: EpochHeader = {
      config: { model: 'deepseek/deepseek-chat' },
      system: this.#system,
      tools: TOOLS,
    }
    s.recordRequestHeader(header)
    this.#flush()
    const text = words(random, between(random, 40, 400))
    if (random() < 0.5) {
      for (let i = 0; i < between(random, 3, 15); i++)
        this.#chunk(turn, step, { type: 'reasoning-delta', text: words(random, 24) })
    }
    for (let i = 0; i < text.length; i += 24)
      this.#chunk(turn, step, { type: 'text-delta', text: text.slice(i, i + 24) })
    const calls = tools ? between(random, 1, 3) : 0
    const blocks: Array<{ type: 'tool-call'; callId: string; name: string; arguments: string }> = []
    for (let c = 0; c < calls; c++) {
      const callId = `call_${++this.#call}`
      const name = TOOLS[between(random, 0, TOOLS.length - 1)].name
      const args = JSON.stringify({ path: `src/${words(random, 12).trim().replace(/ /g, '-')}.ts` })
      this.#chunk(turn, step, { type: 'tool-call-delta', callId, name, argumentsDelta: args })
      blocks.push({ type: 'tool-call', callId, name, arguments: args })
    }
    this.#chunk(turn, step, { type: 'usage', usage: { inputTokens: 12_000, outputTokens: 300 } })
    this.#chunk(turn, step, { type: 'finish', reason: calls ? 'tool-calls' : 'stop' })
    s.append('assistant/message', {
      turn,
      step,
      content: [{ type: 'text', text }, ...blocks],
      finishReason: calls ? 'tool-calls' : 'stop',
      usage: { inputTokens: 12_000, outputTokens: 300, cachedInputTokens: 11_000 },
    })
    for (const block of blocks) {
      s.append('tool/call', {
        turn,
        step,
        callId: block.callId,
        name: block.name,
        arguments: block.arguments,
      })
      this.#flush()
      const size = random() < 0.2 ? between(random, 4000, 16000) : between(random, 100, 2000)
      s.append('tool/result', {
        callId: block.callId,
        name: block.name,
        content: [{ type: 'text', text: words(random, size) }],
        isError: false,
      })
    }
    s.append('step/end', { turn, step, finishReason: calls ? 'tool-calls' : 'stop' })
  }

  /** The flushed batches so far (each a slice of the log between two flush points). */
  batches(): SessionEvent[][] {
    const events = this.session.events()
    const out: SessionEvent[][] = []
    for (let i = 1; i < this.cuts.length; i++) out.push(events.slice(this.cuts[i - 1], this.cuts[i]))
    return out
  }

  #chunk(turn: number, step: number, chunk: SessionEvent<'assistant/chunk'>['data']['chunk']): void {
    this.session.append('assistant/chunk', { turn, step, chunk })
  }

  #flush(): void {
    const at = this.session.length
    if (at > this.cuts[this.cuts.length - 1]) this.cuts.push(at)
  }
}

/** A closed session of at least `events` events (whole turns), with its flush batches. */
export function scriptedSession(id: string, events: number, seed = 1): ScriptedLog {
  const log = new ScriptedLog(id, seed)
  while (log.session.length < events) log.turn()
  return log
}
