// The keyless snapshot harness (50-acp.md requirement 15). A scenario folder holds `input.json` (the
// client script), `model.json` (the scripted model's entries) and `expected.stdout.jsonl` (what the
// real `tack acp` process writes on stdout). The harness plays the script against the real binary,
// answers the server's requests (permission, fs, terminal) as the script says, normalises what
// differs between runs (session ids, uuids, the workspace and model paths, times, the version) and
// returns the normalised stdout. `TACK_SNAPSHOT=refresh` rewrites the goldens.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type Sandbox, sandbox, TACK_BIN } from '../helpers.ts'

export type Step =
  /** Writes one JSON-RPC message; a request (with `id`) waits for its response unless `noWait`. */
  | { send: Record<string, unknown>; noWait?: boolean }
  /** Writes one raw line as it is (malformed JSON, batches). */
  | { raw: string; waitId?: number | null }
  /** Waits until an update of this kind has arrived (`count`: that many in all). */
  | { waitUpdate: string; count?: number }
  /** Waits for the response to request `id`. */
  | { waitResponse: number }
  /** Ends the process (stdin closed) and starts a new one on the same tack home. */
  | { restart: true }

export interface Scenario {
  /** Files to create in the workspace first. */
  readonly files?: Record<string, string>
  /** A config file (YAML) passed with --config. */
  readonly config?: string
  /** `~/.claude/settings.json` of the sandbox (user hooks). */
  readonly claudeSettings?: unknown
  /** The option id the client answers permission requests with (default reject-once). */
  readonly permission?: string
  readonly steps: readonly Step[]
}

interface Running {
  readonly child: ChildProcess
  readonly lines: string[]
  readonly exited: Promise<number | null>
}

/** What one model request offered: its wire tools and whether the system prompt carried Code Mode's SDK. */
export interface RequestTools {
  readonly tools: string[]
  readonly sdk: boolean
}

export interface ScenarioRun {
  readonly stdout: string[]
  /** Each request the scripted model got, in order (`expected.requests.json` when a scenario has one). */
  readonly requests: RequestTools[]
  readonly stderr: string
  readonly exitCodes: Array<number | null>
  readonly box: Sandbox
}

export async function runScenario(folder: string): Promise<ScenarioRun> {
  const scenario = JSON.parse(await readFile(join(folder, 'input.json'), 'utf8')) as Scenario
  const box = await sandbox()
  const model = join(box.root, 'model.json')
  await writeFile(model, await readFile(join(folder, 'model.json'), 'utf8'))
  for (const [name, text] of Object.entries(scenario.files ?? {})) {
    await mkdir(dirname(join(box.workspace, name)), { recursive: true })
    await writeFile(join(box.workspace, name), text)
  }
  if (scenario.claudeSettings !== undefined) {
    await mkdir(join(box.home, '.claude'), { recursive: true })
    await writeFile(join(box.home, '.claude', 'settings.json'), JSON.stringify(scenario.claudeSettings))
  }
  const args = ['acp', '--model', `scripted/${model}`]
  if (scenario.config !== undefined) {
    await writeFile(join(box.root, 'config.yml'), scenario.config)
    args.push('--config', join(box.root, 'config.yml'))
  }
  let stderr = ''
  const all: string[] = []
  const exitCodes: Array<number | null> = []
  const start = (): Running => {
    const child = spawn(process.execPath, [TACK_BIN, ...args], {
      env: box.env,
      cwd: box.workspace,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    const lines: string[] = []
    let buffer = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      buffer += d
      let at = buffer.indexOf('\n')
      while (at >= 0) {
        const line = buffer.slice(0, at)
        buffer = buffer.slice(at + 1)
        if (line.trim() !== '') {
          lines.push(line)
          all.push(line)
          answer(child, line, scenario.permission ?? 'reject-once')
        }
        at = buffer.indexOf('\n')
      }
    })
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    return { child, lines, exited }
  }
  let running = start()
  const parsed = () => running.lines.map((l) => JSON.parse(l) as Record<string, unknown>)
  const wait = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 20_000
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`scenario ${folder}: timed out waiting for ${what}; stderr: ${stderr}`)
      await new Promise((r) => setTimeout(r, 5))
    }
  }
  const hasResponse = (id: number | null) => () =>
    parsed().some(
      (m) => m.id === id && (m.result !== undefined || m.error !== undefined) && m.method === undefined,
    )
  for (const step of scenario.steps) {
    if ('send' in step) {
      const text = JSON.stringify({ jsonrpc: '2.0', ...step.send })
        .split('<cwd>')
        .join(box.workspace)
        .split('<session>')
        .join(sessionIdOf(all) ?? '<session>')
      running.child.stdin?.write(`${text}\n`)
      const id = step.send.id
      if (typeof id === 'number' && !step.noWait) await wait(hasResponse(id), `the response to ${id}`)
    } else if ('raw' in step) {
      running.child.stdin?.write(`${step.raw}\n`)
      if (step.waitId !== undefined) await wait(hasResponse(step.waitId), `the response to ${step.waitId}`)
    } else if ('waitUpdate' in step) {
      const count = step.count ?? 1
      await wait(
        () =>
          parsed().filter(
            (m) =>
              m.method === 'session/update' &&
              (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate === step.waitUpdate,
          ).length >= count,
        `${count} ${step.waitUpdate} update(s)`,
      )
    } else if ('waitResponse' in step) {
      await wait(hasResponse(step.waitResponse), `the response to ${step.waitResponse}`)
    } else if ('restart' in step) {
      running.child.stdin?.end()
      exitCodes.push(await running.exited)
      running = start()
    }
  }
  running.child.stdin?.end()
  exitCodes.push(await running.exited)
  return { stdout: normalise(all, box, model), requests: await requestTools(model), stderr, exitCodes, box }
}

/** The requests the scripted model logged (`<model>.requests.jsonl`), reduced to what they offered. */
async function requestTools(model: string): Promise<RequestTools[]> {
  let text = ''
  try {
    text = await readFile(`${model}.requests.jsonl`, 'utf8')
  } catch {
    return [] // no request reached the model
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const request = JSON.parse(line) as { system?: string; tools?: Array<{ name: string }> }
      return {
        tools: (request.tools ?? []).map((tool) => tool.name),
        sdk: (request.system ?? '').includes('declare const tools'),
      }
    })
}

/** The first session id the server handed out (scenarios name it `<session>`). */
function sessionIdOf(lines: readonly string[]): string | undefined {
  for (const line of lines) {
    const id = (JSON.parse(line) as { result?: { sessionId?: unknown } }).result?.sessionId
    if (typeof id === 'string') return id
  }
  return undefined
}

/** Answers what the server asks the client: permission requests with the scenario's option. */
function answer(child: ChildProcess, line: string, optionId: string): void {
  const message = JSON.parse(line) as { id?: unknown; method?: string }
  if (message.method === 'session/request_permission' && message.id !== undefined) {
    child.stdin?.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { outcome: { outcome: 'selected', optionId } } })}\n`,
    )
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g
const TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g

/** Replaces what differs between runs with stable placeholders, numbering uuids by first sight. */
export function normalise(lines: readonly string[], box: Sandbox, model: string): string[] {
  const seen = new Map<string, string>()
  return lines.map((line) =>
    line
      .split(model)
      .join('<model>')
      .split(box.workspace)
      .join('<cwd>')
      .split(box.root)
      .join('<root>')
      .replace(UUID, (id) => {
        if (!seen.has(id)) seen.set(id, `<uuid-${seen.size + 1}>`)
        return seen.get(id) as string
      })
      .replace(TIME, '<time>')
      .replace(/"version":"\d+\.\d+\.\d+[^"]*"/g, '"version":"<version>"'),
  )
}
