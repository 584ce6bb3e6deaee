// How the interactive bench starts each agent in a pseudo-terminal against a model endpoint, and what on
// its screen says it is ready for input.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PtySession, startPty } from '../../apps/tack/test/pty/terminal.ts'
import { startTui } from '../../apps/tack/test/pty/tui.ts'
import { piCli, writePiAgentDir } from '../lib/pi-run.ts'

export interface InteractiveAgent {
  readonly name: string
  /** Shows once the agent accepts input. */
  readonly ready: RegExp
  start(baseUrl: string): Promise<PtySession>
}

export const COLS = 100
export const ROWS = 30

/** A fresh folder with `ws` (the agent's cwd) and `home`. */
async function place(): Promise<{ root: string; ws: string; home: string }> {
  const root = await mkdtemp(join(tmpdir(), 'tack-bench-tui-'))
  const ws = join(root, 'ws')
  const home = join(root, 'home')
  await mkdir(ws, { recursive: true })
  await mkdir(home, { recursive: true })
  return { root, ws, home }
}

export const TACK: InteractiveAgent = {
  name: 'tack',
  // the status line names the model
  ready: /loop\/bench/,
  async start(baseUrl) {
    const { root, ws, home } = await place()
    const config = join(root, 'bench.yml')
    await writeFile(
      config,
      `plugins:\n  llm:\n    endpoints:\n      loop: { kind: openai-compatible, baseUrl: "${baseUrl}" }\n`,
    )
    return startTui({
      cwd: ws,
      env: { PATH: process.env.PATH, HOME: home, TACK_HOME: join(root, 'tack-home'), LANG: 'C.UTF-8' },
      args: ['--config', config, '--model', 'loop/bench'],
      cols: COLS,
      rows: ROWS,
    })
  },
}

export const PI: InteractiveAgent = {
  name: 'pi',
  // the footer: context use, then the model id
  ready: /%\/\S+ .*bench\s*$/m,
  async start(baseUrl) {
    const { root, ws, home } = await place()
    const agentDir = await writePiAgentDir(root, baseUrl)
    return startPty({
      file: process.execPath,
      args: [piCli(), '--no-session', '--model', 'loop/bench'],
      cwd: ws,
      // offline: no update check or tool download delays its start
      env: {
        PATH: process.env.PATH,
        HOME: home,
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: '1',
        PI_SKIP_VERSION_CHECK: '1',
        TERM: 'xterm-256color',
        LANG: 'C.UTF-8',
      },
      cols: COLS,
      rows: ROWS,
    })
  },
}

/** Bare `node`, idle: the floor any Node.js program stands on. */
export function startIdleNode(): PtySession {
  return startPty({
    file: process.execPath,
    args: ['-e', 'setInterval(() => {}, 1 << 30)'],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH },
    cols: COLS,
    rows: ROWS,
  })
}
