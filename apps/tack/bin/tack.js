#!/bin/sh
':' //; exec node --max-semi-space-size=8 --min-semi-space-size=8 "$0" "$@"
// The line above is read by sh, and by JavaScript as a string and a comment: run as a program (`tack`,
// `npx tack`), the launcher starts Node with V8's young generation capped at 8 MB per semi-space, and
// starting there: growing it from V8's 1 MB start cost a run some fifteen scavenges before its first
// model request, 40–60 ms of CPU; starting at the cap costs an idle screen ~6 MB of RSS
// (docs/decisions/0327-work-before-the-first-request.md; neither flag is in V8's code-cache tag, so
// `--version` pays nothing for them). That
// size cannot be set from inside a running Node, and `#!/usr/bin/env -S node …` fails on BusyBox
// (Alpine); one exec of sh is lost in the noise of start-up. Measured on the 200-read session: peak RSS
// 184 → 148 MB (docs/decisions/0067-long-session-cost.md). Old space's growth factor
// (`--heap-growing-percent`) is not here: on the command line it costs every command ~10 ms of start-up
// (V8's flags guard Node's code cache), so the commands that run a session set it at run time
// (src/session-heap.ts, docs/decisions/0068-heap-growth-and-step-cost.md). `node bin/tack.js …` runs
// without the semi-space cap.
//
// The `tack` launcher. `--version` and `--help` are answered here, before any TypeScript, provider,
// SQLite or plugin is imported, so they start about as fast as Node itself (P1). Everything else is
// handed to main (the build, or the sources when the build is stale: freshness.js), which imports only
// what the command needs.
import { readFileSync } from 'node:fs'

const argv = process.argv.slice(2)
const first = argv[0]
// `tack run --help` (a usage error points there): the one help text, which covers every command. Not for
// dice, state, mcp, skills, rewind, jobs, worker and serve, which have their own; nothing after `--`, which is a task's text (or, for
// `tack mcp add NAME -- CMD`, the server's own flags).
const flagsPart = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv
const wantsHelp =
  first !== 'dice' &&
  first !== 'state' &&
  first !== 'mcp' &&
  first !== 'skills' &&
  first !== 'rewind' &&
  first !== 'jobs' &&
  first !== 'worker' &&
  first !== 'serve' &&
  (flagsPart.includes('--help') || flagsPart.includes('-h'))

if (first === '--version' || first === '-V' || first === 'version') {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`tack ${pkg.version}\n`)
} else if (first === 'help' || wantsHelp) {
  const { HELP, SESSIONS_HELP } = await import('./help.js')
  // the command's own help where it has one (`tack sessions --help`), else the whole list
  process.stdout.write(first === 'sessions' ? SESSIONS_HELP : HELP)
} else {
  // node:sqlite as the store uses it (StatementSync#setReturnArrays, isTransaction): 22.16 or 24.
  const [major, minor] = process.versions.node.split('.').map(Number)
  if (!(major >= 24 || (major === 22 && minor >= 16))) {
    process.stderr.write(
      `tack needs Node.js 22.16 or newer on the 22 line, or 24 or newer (this is ${process.version}). In this repository run it as \`npx tack …\`, which uses the Node 24 the repo installs; elsewhere install Node 24 (see the README).\n`,
    )
    process.exit(1)
  }
  if (major === 22) {
    // Node 22 warns once that node:sqlite is experimental, on stderr, on every run; the store is tested
    // against it (docs/decisions/0025). Only that warning is dropped; every other one is still printed.
    const emitWarning = process.emitWarning
    process.emitWarning = (warning, ...rest) =>
      String(warning).startsWith('SQLite is an experimental feature')
        ? undefined
        : emitWarning.call(process, warning, ...rest)
  }
  const { useCompileCache } = await import('./compile-cache.js')
  useCompileCache()
  const { buildState } = await import('./freshness.js')
  const state = buildState(new URL('../../../', import.meta.url))
  const { main } = await import(state.use === 'build' ? `../build/${state.main}` : '../src/main.ts')
  process.exitCode = await main(argv)
}
