// Probe for one measured `tack acp` process of the many-sessions bench, with extra Node flags (e.g.
// --cpu-prof) and, with HEAP_SNAPSHOT_DIR set, a heap snapshot taken after the last prompt while the
// process still lives, so what each session keeps can be read off snapshots of 1 and of 50 sessions
// (docs/decisions/0335-many-sessions-per-process.md). Not part of `npm run bench`.
//
//   node bench/many/probe.ts SESSIONS concurrent|sequential|jobs [node flags…]
import { readdir, stat } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { measureAcpSessions } from './acp-sessions.ts'

const sessions = Number(process.argv[2] ?? 50)
const mode = process.argv[3] ?? 'concurrent'
if (!['concurrent', 'sequential', 'jobs'].includes(mode))
  throw new Error(`mode must be concurrent, sequential or jobs (got ${mode})`)
const snapshots = process.env.HEAP_SNAPSHOT_DIR
const flags = [
  ...process.argv.slice(4),
  ...(snapshots ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`] : []),
]
const measure = await measureAcpSessions({
  sessions,
  schedule: mode === 'concurrent' ? 'concurrent' : 'sequential',
  ...(mode === 'jobs' ? { folders: 'own' as const, close: true } : {}),
  // As the launcher runs it (its semi-space cap), plus the probe's flags.
  ...(flags.length ? { nodeFlags: ['--max-semi-space-size=8', ...flags] } : {}),
  ...(snapshots
    ? {
        afterSessions: async (pid: number) => {
          const before = new Set(await readdir(snapshots))
          process.kill(pid, 'SIGUSR2')
          // The file appears when writing starts; its size settles when writing ends.
          let size = -1
          for (;;) {
            await sleep(500)
            const added = (await readdir(snapshots)).filter((f) => !before.has(f))
            if (added.length === 0) continue
            const { size: now } = await stat(`${snapshots}/${added[0]}`)
            if (now === size) break
            size = now
          }
        },
      }
    : {}),
})
console.log(JSON.stringify(measure))
