// What the session log's flush costs per step of the long-session bench
// (docs/decisions/0068-heap-growth-and-step-cost.md): a real Session over a real SqliteSessionStore on
// a temp folder, fed the ten events of one read step in the agent's order, flushed at the agent's two
// durability points (after `step/start` — the request header — and after `tool/call`, before the tool
// runs). Prints the CPU (user + system) spent inside `store.append` per step, and how much of it is
// SQLite's statements alone (the same rows, the same two transactions, on a second connection). Not
// part of `npm run bench`.
//
//   node bench/long/flush.ts [steps=2000]
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { Session, type SessionEvent, type SessionEventMap, type SessionEventType } from '@tack/session'
import { SqliteSessionStore } from '@tack/store-sqlite'

const STEPS = Number(process.argv[2] ?? 2000)
const cpuUs = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

type Append = { [T in SessionEventType]: [T, SessionEventMap[T]] }[SessionEventType]

/** One read step as the agent logs it; the agent flushes after the entries marked `flush`. */
function stepEvents(step: number): Array<{ event: Append; flush?: true }> {
  const turn = 1
  const callId = `call_${step}`
  const args = `{"file_path":"src/module-${step}.ts"}`
  const chunk = (c: SessionEventMap['assistant/chunk']['chunk']): Append => [
    'assistant/chunk',
    { turn, step, chunk: c },
  ]
  const body = Array.from({ length: 6 }, (_, l) => `${l + 1}\texport const value${l} = ${step * 1000 + l}`)
  return [
    { event: ['step/start', { turn, step }], flush: true },
    { event: chunk({ type: 'tool-call-delta', callId, name: 'read', argumentsDelta: '' }) },
    { event: chunk({ type: 'tool-call-delta', callId, argumentsDelta: args.slice(0, 15) }) },
    { event: chunk({ type: 'tool-call-delta', callId, argumentsDelta: args.slice(15) }) },
    { event: chunk({ type: 'usage', usage: { inputTokens: 1000 + step * 60, outputTokens: 20 } }) },
    { event: chunk({ type: 'finish', reason: 'tool-calls' }) },
    {
      event: [
        'assistant/message',
        {
          turn,
          step,
          content: [{ type: 'tool-call', callId, name: 'read', arguments: args }],
          finishReason: 'tool-calls',
        },
      ],
    },
    { event: ['tool/call', { turn, step, callId, name: 'read', arguments: args }], flush: true },
    {
      event: [
        'tool/result',
        { callId, name: 'read', content: [{ type: 'text', text: body.join('\n') }], isError: false },
      ],
    },
    { event: ['step/end', { turn, step, finishReason: 'tool-calls' }] },
  ]
}

const dir = await mkdtemp(join(tmpdir(), 'tack-flush-'))
try {
  const store = SqliteSessionStore.open({ dataDir: dir })
  const header = { version: 1, id: 'flush', createdAt: new Date().toISOString(), cwd: dir } as const
  await store.create(header, { writer: true })
  let storeUs = 0
  const batches: SessionEvent[][] = []
  const session = new Session({
    header,
    onFlush: async (_s, batch) => {
      const before = cpuUs()
      await store.append(header.id, batch)
      storeUs += cpuUs() - before
      batches.push([...batch])
    },
  })
  session.append('turn/start', { turn: 1, trigger: { kind: 'message' } })
  session.append('user/message', {
    content: [{ type: 'text', text: 'read every module' }],
    source: { kind: 'user' },
  })
  for (let step = 1; step <= STEPS; step++) {
    for (const { event, flush } of stepEvents(step)) {
      session.append(...(event as [SessionEventType, never]))
      if (flush) await session.flush()
    }
  }
  await store.close()

  // The same rows and transactions again, SQLite alone: what is left of `store.append` is its JS.
  const db = new DatabaseSync(join(dir, 'sessions.db'))
  db.exec('PRAGMA synchronous = normal')
  db.exec('DELETE FROM events')
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commit = db.prepare('COMMIT')
  const last = db.prepare('SELECT max(seq) AS last FROM events WHERE session_id = ?')
  const insert = db.prepare(
    'INSERT INTO events (session_id, seq, type, time, data, op) VALUES (?, ?, ?, ?, ?, ?)',
  )
  const before = cpuUs()
  for (const batch of batches) {
    begin.run()
    last.get(header.id)
    for (const e of batch) {
      insert.run(
        header.id,
        e.seq,
        e.type,
        e.time,
        JSON.stringify(e.data),
        e.op === undefined ? null : JSON.stringify(e.op),
      )
    }
    commit.run()
  }
  const sqlUs = cpuUs() - before
  db.close()
  const perStep = (us: number) => `${(us / STEPS / 1000).toFixed(3)} ms`
  console.log(
    `${STEPS} steps: ${batches.length / STEPS} transactions and ${(session.length - 2) / STEPS} events per step`,
  )
  console.log(`store.append CPU per step: ${perStep(storeUs)} (SQLite statements alone: ${perStep(sqlUs)})`)
} finally {
  await rm(dir, { recursive: true, force: true })
}
