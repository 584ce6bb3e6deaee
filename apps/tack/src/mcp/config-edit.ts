// `tack mcp add|remove` edit the file of their scope and keep everything else in it: the user scope is
// `$TACK_HOME/config.yml` under `plugins.mcp.servers` (comments and order kept, through yaml's Document),
// the project scope the workspace's `.mcp.json` under `mcpServers`, as `claude mcp add --scope project`
// writes it (two-space JSON, other keys kept).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { makeTackHome } from '@tack/kernel/home'
import { CliError } from '../errors.ts'
import { isRecord } from './definition.ts'
import { readProjectJson } from './project-file.ts'

const USER_PATH = ['plugins', 'mcp', 'servers'] as const

export async function userServerNames(file: string): Promise<string[]> {
  if (!existsSync(file)) return []
  const { parse } = await import('yaml')
  const servers = (parse(readFileSync(file, 'utf8')) as { plugins?: { mcp?: { servers?: unknown } } } | null)
    ?.plugins?.mcp?.servers
  return isRecord(servers) ? Object.keys(servers) : []
}

/** Sets (`definition`) or deletes (undefined) a server in the user's config file. */
export async function editUserServer(
  file: string,
  home: string,
  name: string,
  definition: unknown,
): Promise<void> {
  const { parseDocument } = await import('yaml')
  const doc = parseDocument(existsSync(file) ? readFileSync(file, 'utf8') : '')
  if (doc.errors.length)
    throw new CliError(`${file}: not valid YAML (${doc.errors[0].message.split('\n')[0]})`)
  const mcp = doc.getIn(['plugins', 'mcp'])
  if (mcp !== undefined && mcp !== null && !isRecord(doc.toJS()?.plugins?.mcp))
    throw new CliError(
      `${file}: plugins.mcp is not a mapping; edit the file to add servers under plugins.mcp.servers`,
    )
  if (definition === undefined) doc.deleteIn([...USER_PATH, name])
  else doc.setIn([...USER_PATH, name], doc.createNode(definition))
  if (!existsSync(file)) makeTackHome(home)
  // a new file is owner-only: it holds the servers' env and header values (an existing one keeps its mode)
  writeFileSync(file, doc.toString(), { mode: 0o600 })
}

export function projectServerNames(file: string): string[] {
  const r = readProjectJson(file)
  return r.ok && isRecord(r.value.mcpServers) ? Object.keys(r.value.mcpServers) : []
}

/** Sets or deletes a server in the workspace's `.mcp.json`. */
export function editProjectServer(file: string, name: string, definition: unknown): void {
  let doc: Record<string, unknown> = {}
  const r = readProjectJson(file)
  if (r.ok) doc = r.value
  else if (!r.missing) throw new CliError(r.problem)
  const servers = doc.mcpServers ?? {}
  if (!isRecord(servers)) throw new CliError(`${file}: mcpServers must be an object`)
  const next = { ...servers }
  if (definition === undefined) delete next[name]
  else next[name] = definition
  writeFileSync(file, `${JSON.stringify({ ...doc, mcpServers: next }, null, 2)}\n`)
}
