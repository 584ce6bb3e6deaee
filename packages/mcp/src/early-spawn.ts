// Stdio servers spawned at the very start of the boot (spec 55-mcp.md M2, docs/decisions/
// 0240-mcp-early-start.md): a Node server takes a few hundred milliseconds to start, about as long as
// tack's own boot, so boot spawns the servers it will start before it loads its plugins, and the
// plugin's connection takes each over (transport.ts) instead of spawning it again. A server is taken
// only when its command, arguments, folder and environment are exactly those the connection would
// spawn (a secret declared meanwhile changes the environment: the early process is ended, a fresh one
// spawned). Whatever no connection took is ended once the plugin has started its own.
//
// Free of the SDK's imports (`@tack/mcp/early`): the client's code is loaded after the spawn.
import { STDERR_MAX_BYTES_DEFAULT } from './config.ts'
import type { McpServers } from './definition.ts'
import { serverEnvironment } from './server-env.ts'
import { type ServerCommand, ServerProcess } from './server-process.ts'
import { StderrTail } from './stderr-tail.ts'

interface EarlyServer {
  readonly key: string
  readonly process: ServerProcess
  readonly stderr: StderrTail
}

const early = new Map<string, EarlyServer>()

function keyOf(command: ServerCommand): string {
  const env = Object.entries(command.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([command.command, command.args ?? [], command.cwd ?? null, env])
}

/**
 * Spawns every enabled stdio server of `servers` now. `secretVariables`: the variables already known to
 * be secret (kept out of the environment as the connection will). What a server writes on stderr before
 * a connection takes it is kept within the default bound, then handed to the connection's own tail.
 */
export function spawnEarlyServers(servers: McpServers, secretVariables: readonly string[]): void {
  for (const [name, def] of Object.entries(servers)) {
    if (def.type !== 'stdio' || def.enabled === false || early.has(name)) continue
    const command: ServerCommand = {
      command: def.command,
      ...(def.args ? { args: def.args } : {}),
      env: serverEnvironment(def.env, secretVariables),
      ...(def.cwd ? { cwd: def.cwd } : {}),
    }
    const stderr = new StderrTail(STDERR_MAX_BYTES_DEFAULT)
    early.set(name, { key: keyOf(command), process: new ServerProcess(command, stderr), stderr })
  }
}

/** The early process of server `name` if it was spawned as `command` and is still running; else none. */
export function takeEarlyServer(
  name: string,
  command: ServerCommand,
  stderr: StderrTail,
): ServerProcess | undefined {
  const found = early.get(name)
  if (!found) return undefined
  early.delete(name)
  if (found.key !== keyOf(command) || found.process.exited) {
    void found.process.end()
    return undefined
  }
  found.process.stderrTo(stderr)
  return found.process
}

/** When server `name` was spawned early (performance.now()), while no connection has taken it. */
export function earlySpawnedAt(name: string): number | undefined {
  return early.get(name)?.process.spawnedAt
}

/** Ends every early process no connection took (a server the plugin does not start after all). */
export function endUntakenServers(): Promise<void> {
  const left = [...early.values()]
  early.clear()
  return Promise.all(left.map(({ process }) => process.end())).then(() => undefined)
}
