// The global-install path, end to end (issue 10 item 7; run by `.ci/run`): pack the build, `npm install -g`
// it into a temporary prefix, then from a folder outside the repository — with a PATH that holds that
// prefix, one recent Node (22.16+ or 24+) and the system folders, but nothing of the repository — run `tack --version`,
// a scripted `tack run` (a bash call, then an answer), `tack doctor`, `tack sessions list` and `tack state status`,
// then the products' own `agent-dice` and `agent-state` from the same install; then the library: a copy of
// examples/library-basic, outside the repository, installs the same tarball as a dependency, type-checks
// against its declarations and runs a scripted session that approves a call through its callback
// (docs/library.md).
//
// The Node is the one running this script (`node_modules/.bin/node scripts/install-check.ts` in CI, the
// repo's Node 24, because CI's system Node is 20), linked alone into a folder of its own, exactly as a
// user's own Node would be on their PATH.
//
//   node scripts/install-check.ts
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './build.ts'
import { nodeIsRecentEnough, pack } from './pack.ts'

function check(what: string, ok: boolean, detail: string): void {
  process.stdout.write(
    `${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : `\n     ${detail.replace(/\n/g, '\n     ')}`}\n`,
  )
  if (!ok) process.exitCode = 1
}

if (!nodeIsRecentEnough(process.versions.node))
  throw new Error(`run this with Node 22.16+ or 24+ (this is ${process.version})`)

const tarball = pack()
const root = mkdtempSync(join(tmpdir(), 'tack-install-'))
try {
  const prefix = join(root, 'prefix')
  const nodeDir = join(root, 'node-bin')
  const home = join(root, 'home')
  const work = join(root, 'some-project')
  for (const dir of [prefix, nodeDir, home, work]) mkdirSync(dir, { recursive: true })
  symlinkSync(process.execPath, join(nodeDir, 'node'))

  const install = spawnSync(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--offline',
      '--no-audit',
      '--no-fund',
      '--loglevel',
      'error',
      tarball,
    ],
    { encoding: 'utf8' },
  )
  check(`npm install -g ${tarball}`, install.status === 0, install.stderr)

  const env: NodeJS.ProcessEnv = {
    PATH: [join(prefix, 'bin'), nodeDir, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    LANG: 'C.UTF-8',
  }
  const tack = (args: string[]) =>
    spawnSync('tack', args, { cwd: work, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

  const which = spawnSync('sh', ['-c', 'command -v tack'], { env, encoding: 'utf8' })
  check('tack is on PATH from the prefix', which.stdout.trim() === join(prefix, 'bin', 'tack'), which.stdout)
  check('the folder is outside the repository', !work.startsWith(ROOT), work)

  const version = tack(['--version'])
  check(
    'tack --version',
    version.status === 0 && /^tack \d+\.\d+\.\d+\n$/.test(version.stdout),
    version.stderr,
  )

  writeFileSync(
    join(work, 'script.json'),
    JSON.stringify([
      {
        kind: 'tool-calls',
        calls: [{ name: 'bash', args: { command: 'echo built > proof.txt && cat proof.txt' } }],
      },
      { kind: 'text', text: 'the installed tack ran bash and answered' },
    ]),
  )
  const run = tack(['run', '--model', 'scripted/script.json', 'write the proof'])
  check(
    'tack run with a scripted model',
    run.status === 0 && run.stdout === 'the installed tack ran bash and answered\n',
    `exit ${run.status}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`,
  )

  const doctor = tack(['doctor'])
  check(
    'tack doctor: the packed build runs',
    /running\s+built JavaScript \(packed install/.test(doctor.stdout),
    doctor.stdout,
  )

  const list = tack(['sessions', 'list', '--json'])
  let sessions = 0
  try {
    sessions = (JSON.parse(list.stdout) as unknown[]).length
  } catch {
    sessions = -1 // not JSON: reported below with the output
  }
  check('the session is stored under ~/.tack', sessions === 1, list.stdout + list.stderr)

  // the products ship inside the tarball with their one dependency (`tack-home`, a plain-JavaScript
  // workspace package staged under node_modules): agent-state's readers load it
  const state = tack(['state', 'status'])
  check(
    'tack state status (agent-state with tack-home, from the tarball)',
    state.status === 0 && state.stdout === 'No live sessions.\n',
    state.stdout + state.stderr,
  )

  // `tack state enable` links the agent-state mod the tarball ships, and the next run loads it
  const enable = tack(['state', 'enable'])
  const mods = tack(['mods', 'list'])
  check(
    'tack state enable: the shipped agent-state mod loads',
    enable.status === 0 && /agent-state[^\n]*\n(?:.*\n)*?\s+loads\s+yes/.test(mods.stdout),
    enable.stdout + enable.stderr + mods.stdout + mods.stderr,
  )

  // the products' own commands are on PATH from the same install, as their READMEs say (issue 26)
  const dice = spawnSync('agent-dice', ['--help'], { cwd: work, env, encoding: 'utf8' })
  check(
    'agent-dice on PATH from the tarball',
    dice.status === 0 && dice.stdout.startsWith('Usage: agent-dice <command>'),
    `exit ${dice.status}\n${dice.stdout}${dice.stderr}`,
  )
  const agentState = spawnSync('agent-state', ['status'], { cwd: work, env, encoding: 'utf8' })
  check(
    'agent-state on PATH from the tarball',
    agentState.status === 0 && agentState.stdout === 'No live sessions.\n',
    `exit ${agentState.status}\n${agentState.stdout}${agentState.stderr}`,
  )

  checkLibrary(tarball, root, env)
} finally {
  rmSync(root, { recursive: true, force: true })
}

/** `import … from 'tack'` as a user's package does it, from the packed tarball (docs/library.md). */
function checkLibrary(tarball: string, root: string, env: NodeJS.ProcessEnv): void {
  const example = join(root, 'library-basic')
  cpSync(join(ROOT, 'examples', 'library-basic'), example, {
    recursive: true,
    filter: (src) => !src.includes('node_modules'),
  })
  const install = spawnSync(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', '--loglevel', 'error', tarball],
    { cwd: example, encoding: 'utf8' },
  )
  check('the example installs the tarball as a dependency', install.status === 0, install.stderr)

  // The repository's TypeScript, on the example's own tsconfig (strict, no skipLibCheck): the shipped
  // declarations are what it checks against.
  const tsc = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(example, 'tsconfig.json'),
      '--typeRoots',
      join(ROOT, 'node_modules', '@types'),
    ],
    { cwd: example, encoding: 'utf8' },
  )
  check(
    "the example's types check against the installed package (tsc --noEmit)",
    tsc.status === 0 &&
      existsSync(join(example, 'node_modules', 'tack', 'apps', 'tack', 'build', 'library', 'index.d.ts')),
    tsc.stdout + tsc.stderr,
  )

  const workspace = join(root, 'library-workspace')
  mkdirSync(workspace)
  const script = join(root, 'library-script.json')
  writeFileSync(
    script,
    JSON.stringify([
      {
        kind: 'tool-calls',
        calls: [{ name: 'write', args: { file_path: 'proof.txt', content: 'hello\n' } }],
      },
      {
        kind: 'tool-calls',
        calls: [{ name: 'write', args: { file_path: '../outside.txt', content: 'no\n' } }],
      },
      { kind: 'text', text: 'wrote the proof' },
    ]),
  )
  const run = spawnSync('node', ['approve-and-stream.ts', workspace, `scripted/${script}`], {
    cwd: example,
    env,
    encoding: 'utf8',
  })
  const out = run.stdout
  check(
    'the example runs a scripted session: one call approved, one denied, the events printed',
    run.status === 0 &&
      /approval: write \{"file_path":"proof\.txt".*-> allow\n/.test(out) &&
      /approval: write \{"file_path":"\.\.\/outside\.txt".*-> deny\n/.test(out) &&
      /\d+ approval\/resolved allow by user\n/.test(out) &&
      /\d+ turn\/end completed\n/.test(out) &&
      out.endsWith('result: completed: wrote the proof\n') &&
      readFileSync(join(workspace, 'proof.txt'), 'utf8') === 'hello\n' &&
      !existsSync(join(root, 'outside.txt')),
    `exit ${run.status}\nstdout: ${out}\nstderr: ${run.stderr}`,
  )
}
