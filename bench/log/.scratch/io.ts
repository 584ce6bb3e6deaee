import { scriptedSession } from '../workload.ts'
import { SqliteSessionStore } from '../../../packages/store-sqlite/src/index.ts'
import { rmSync, mkdirSync } from 'node:fs'
const log = scriptedSession('x', 100_000, 7)
const batches = log.batches()
const dir = '/tmp/prof-db2'
for (const sync of ['normal', 'full', 'normal'] as const) {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir)
  const store = SqliteSessionStore.open({ path: dir + '/a.db', synchronous: sync })
  await store.create(log.session.header)
  const c0 = process.cpuUsage()
  const t = performance.now()
  let worst = 0
  for (const b of batches) {
    const s = performance.now()
    await store.append('x', b)
    worst = Math.max(worst, performance.now() - s)
  }
  const wall = performance.now() - t
  const cpu = process.cpuUsage(c0)
  console.log(
    sync,
    'wall',
    wall.toFixed(0),
    'cpu user',
    (cpu.user / 1000).toFixed(0),
    'sys',
    (cpu.system / 1000).toFixed(0),
    'worst batch ms',
    worst.toFixed(1),
  )
  await store.close()
}
