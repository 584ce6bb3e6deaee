// R1 child process: `node crash-writer.ts <db> <seed> [fresh]` writes scripted agent turns to a
// SQLite store until it is killed. It continues the newest session (loading it, which recovers a turn
// the last kill cut) or now and then — always with `fresh`, for writers sharing a file — starts a new
// one, flushes where the agent loop flushes, and after every
// append that returned prints `ack <session> <seq> <sha1 of the event>` for the batch's last event —
// synchronously, before writing anything else — so the parent knows what must survive.
import { createHash } from 'node:crypto'
import { writeSync } from 'node:fs'
import { type SessionEvent, Session } from '@tack/session'
import { SqliteSessionStore } from '../src/index.ts'

const [path, seedText, mode] = process.argv.slice(2)
let state = Number(seedText) >>> 0
/** mulberry32, so a seed replays the same script. */
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0
  let t = state
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const pick = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1))
const say = (line: string) => writeSync(1, `${line}\n`)
const digest = (event: SessionEvent) => createHash('sha1').update(JSON.stringify(event)).digest('hex')

const store = SqliteSessionStore.open({ path })
const onFlush = async (s: Session, batch: readonly SessionEvent[]) => {
  await store.append(s.id, batch)
  const last = batch[batch.length - 1]
  say(`ack ${s.id} ${last.seq} ${digest(last)}`)
}

const sessions = await store.list()
let session: Session
if (mode === 'fresh' || sessions.length === 0 || random() < 0.15) {
  const header = {
    version: 1,
    id: `s-${seedText}-${process.pid}`,
    createdAt: new Date().toISOString(),
    cwd: '/work',
  }
  await store.create(header)
  session = new Session({ header, onFlush })
} else {
  const newest = sessions[sessions.length - 1]
  const loaded = await store.load(newest.id)
  session = new Session({ header: loaded.header, events: loaded.events, onFlush })
}
let turn = session
  .events()
  .reduce(
    (n, e) => (e.type === 'turn/start' ? Math.max(n, (e as SessionEvent<'turn/start'>).data.turn) : n),
    0,
  )
say(`ready ${session.id} ${session.length}`)

const text = (t: string) => [{ type: 'text' as const, text: t }]
let calls = session.length
for (;;) {
  turn++
  session.append('turn/start', { turn, trigger: { kind: 'message' } })
  session.append('user/message', { content: text(`task ${turn}`), source: { kind: 'user' } })
  const steps = pick(1, 4)
  for (let step = 1; step <= steps; step++) {
    session.append('step/start', { turn, step })
    session.recordRequestHeader({ config: { model: 'mock/model' }, system: `system ${turn % 3}` })
    await session.flush() // before the model request
    for (let i = pick(0, 12); i > 0; i--) {
      session.append('assistant/chunk', { turn, step, chunk: { type: 'text-delta', text: `chunk ${i} ` } })
    }
    const tools = step < steps ? pick(1, 3) : 0
    const blocks = Array.from({ length: tools }, () => ({
      type: 'tool-call' as const,
      callId: `call-${++calls}`,
      name: 'read',
      arguments: JSON.stringify({ path: `f${calls}.ts` }),
    }))
    session.append('assistant/message', {
      turn,
      step,
      content: [...text(`step ${step}`), ...blocks],
      finishReason: tools ? 'tool-calls' : 'stop',
    })
    for (const block of blocks) {
      session.append('tool/call', {
        turn,
        step,
        callId: block.callId,
        name: 'read',
        arguments: block.arguments,
      })
      await session.flush() // before the tool body
      session.append('tool/result', {
        callId: block.callId,
        name: 'read',
        content: text('x'.repeat(pick(10, 3000))),
        isError: false,
      })
    }
    session.append('step/end', { turn, step })
  }
  session.append('turn/end', { turn, reason: { kind: 'completed' } })
  await session.flush() // at turn/end
}
