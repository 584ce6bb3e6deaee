// Checkpoints (docs/decisions/0305-checkpoints-and-rewind.md): what a turn's checkpoint costs on a
// 10,000-file repository after the first snapshot (goal ≤ 50 ms), with the first snapshot, an unchanged
// tree, and a restore for scale. Baselines from the same run, so a loaded machine shows as such: `git
// status` on the same tree as a plain repository (what a git user pays to look) and a bare `git
// --version` (the cost of starting git at all; a snapshot starts three).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GitStore } from '../../apps/tack/src/checkpoints/git-store.ts'

const GOAL_MS = 50
const RUNS = 15
const root = mkdtempSync(join(tmpdir(), 'bench-checkpoints-'))
const workspace = join(root, 'ws')
for (let d = 0; d < 100; d++) {
  mkdirSync(join(workspace, 'src', `m${d}`), { recursive: true })
  for (let f = 0; f < 100; f++)
    writeFileSync(join(workspace, 'src', `m${d}`, `f${f}.ts`), `export const v${f} = ${d}\n`.repeat(30))
}
// Ignored files cost nothing but the ignore check: 2,000 of them in node_modules.
writeFileSync(join(workspace, '.gitignore'), 'node_modules/\n')
for (let d = 0; d < 20; d++) {
  mkdirSync(join(workspace, 'node_modules', `p${d}`), { recursive: true })
  for (let f = 0; f < 100; f++) writeFileSync(join(workspace, 'node_modules', `p${d}`, `i${f}.js`), 'x\n')
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number
async function timed(fn: () => unknown): Promise<number> {
  const began = performance.now()
  await fn()
  return performance.now() - began
}

const store = new GitStore({ root: join(root, 'checkpoints'), workspace })
const first = await timed(async () => {
  const s = await store.snapshot(10 * 1024 * 1024)
  await store.keep('000-first', s.tree)
})
const turns: number[] = []
const unchanged: number[] = []
let last = ''
for (let i = 0; i < RUNS; i++) {
  // A turn's worth of edits: three files changed, one created.
  for (let k = 0; k < 3; k++)
    writeFileSync(join(workspace, 'src', `m${(i * 7 + k) % 100}`, `f${k}.ts`), `turn ${i}\n`)
  writeFileSync(join(workspace, `new-${i}.ts`), `new ${i}\n`)
  turns.push(
    await timed(async () => {
      const s = await store.snapshot(10 * 1024 * 1024)
      await store.keep(`${String(i + 1).padStart(3, '0')}-turn`, s.tree)
      await store.prune(200)
      last = s.tree
    }),
  )
  unchanged.push(await timed(() => store.snapshot(10 * 1024 * 1024)))
}
const firstTree = (await store.git(['rev-parse', 'refs/tack/000-first'])).trim()
const restore = await timed(() => store.restore(firstTree, 10 * 1024 * 1024, []))
await store.restore(last, 10 * 1024 * 1024, [])

// Baselines: the same tree as a plain repository.
execFileSync('git', ['init', '-q'], { cwd: workspace })
execFileSync('git', ['add', '-A'], { cwd: workspace })
const status: number[] = []
const spawnGit: number[] = []
for (let i = 0; i < RUNS; i++) {
  status.push(await timed(() => execFileSync('git', ['status', '--porcelain'], { cwd: workspace })))
  spawnGit.push(await timed(() => execFileSync('git', ['--version'])))
}
rmSync(root, { recursive: true, force: true })

const turn = median(turns)
const line = (label: string, ms: number) => `   ${label.padEnd(46)} ${ms.toFixed(1).padStart(7)} ms\n`
process.stdout.write(line('first snapshot (10,000 files, 2,000 ignored)', first))
process.stdout.write(
  line(`checkpoint per turn, median of ${RUNS} (4 files changed)`, turn).replace(
    /\n$/,
    `  goal ≤ ${GOAL_MS} ms: ${turn <= GOAL_MS ? 'met' : 'MISSED'}\n`,
  ),
)
process.stdout.write(line('snapshot of an unchanged tree, median', median(unchanged)))
process.stdout.write(line('restore to the first snapshot (60 files)', restore))
process.stdout.write(line('baseline: git status --porcelain, median', median(status)))
process.stdout.write(line('baseline: git --version, median', median(spawnGit)))
process.stdout.write(
  `   per turn = ${(turn / median(status)).toFixed(2)}× git status, ${(turn / median(spawnGit)).toFixed(1)}× starting git\n`,
)
