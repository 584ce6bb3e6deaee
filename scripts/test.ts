// `npm test`: type check, lint/format, generated-docs freshness, the end-to-end files under a shuffled boot
// loop, then the test suite with coverage.
// Each step runs as a child process; the first failure stops the run with its exit code.
// The vitest run goes last so the output ends with the runner's summary line.
import { spawnSync } from 'node:child_process'

const steps: Array<[string, string[]]> = [
  ['build the JavaScript copy the tack command runs', ['node', 'scripts/build.ts']],
  ['type check', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint and format', ['npx', 'biome', 'check', '.']],
  ['generated docs are fresh', ['node', 'scripts/docs.ts', '--check']],
  // The scripted end-to-end files again with the boot loop shuffled: its order changes nothing
  // (docs/decisions/0206-boot-loop.md). About 70 s on 2 shared cores.
  ['end-to-end files, boot loop shuffled', ['npx', 'vitest', 'run', '--config', 'vitest.shuffled.config.ts']],
  ['tests', ['npx', 'vitest', 'run', '--coverage', ...process.argv.slice(2)]],
]

for (const [title, [cmd, ...args]] of steps) {
  process.stdout.write(`\n▶ ${title}: ${[cmd, ...args].join(' ')}\n`)
  const result = spawnSync(cmd, args, { stdio: 'inherit' })
  if (result.status !== 0) {
    process.stderr.write(`✗ ${title} failed (exit ${result.status ?? result.signal})\n`)
    process.exit(result.status ?? 1)
  }
}
