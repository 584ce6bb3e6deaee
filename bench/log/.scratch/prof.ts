import { checkJson } from '@tack/session'
import { DatabaseSync } from 'node:sqlite'
import { scriptedSession } from '/work/main/bench/log/workload.ts'
import { SqliteSessionStore } from '/work/main/packages/store-sqlite/src/index.ts'
const log = scriptedSession('x', 100_000, 7)
const events = log.session.events()
const batches = log.batches()
let t = performance.now()
for (const e of events) checkJson(e)
console.log('checkJson', performance.now() - t)
t = performance.now()
for (const e of events) JSON.stringify(e.data)
console.log('stringify', performance.now() - t)
const dir = '/tmp/prof-db'
import { rmSync, mkdirSync } from 'node:fs'
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir)
const store = SqliteSessionStore.open({ path: dir + '/a.db' })
await store.create(log.session.header)
t = performance.now()
for (const b of batches) await store.append('x', b)
console.log('store append', performance.now() - t)
// raw sqlite
const db = new DatabaseSync(dir + '/a.db')
db.exec('pragma journal_mode=wal; pragma synchronous=normal')
db.exec("insert into sessions values ('y', '{}')")
const ins = db.prepare('INSERT INTO events (session_id, seq, type, time, data, op) VALUES (?, ?, ?, ?, ?, ?)')
const strs = events.map((e) => [JSON.stringify(e.data), e.op ? JSON.stringify(e.op) : null])
const begin = db.prepare('BEGIN IMMEDIATE'),
  commit = db.prepare('COMMIT')
t = performance.now()
let i = 0
for (const b of batches) {
  begin.run()
  for (const e of b) {
    ins.run('y', e.seq, e.type, e.time, strs[i][0], strs[i][1])
    i++
  }
  commit.run()
}
console.log('raw inserts', performance.now() - t)
db.exec("insert into sessions values ('z', '{}')")
t = performance.now()
i = 0
begin.run()
for (const b of batches) {
  for (const e of b) {
    ins.run('z', e.seq, e.type, e.time, strs[i][0], strs[i][1])
    i++
  }
}
commit.run()
console.log('raw inserts one tx', performance.now() - t)
