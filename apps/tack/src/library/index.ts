// `import { openSession, resumeSession, forkSession } from 'tack'`: tack as a library (issue 28 item 0,
// docs/library.md, docs/decisions/0345-tack-as-a-library.md). A session is booted as `tack run` boots
// one — the same settings layers, trust, plugins, mods, MCP servers and model check (agent-boot.ts) —
// from options instead of flags; api.ts is the contract and what a user's type check sees.
import './log-events.ts'
import { readFileSync } from 'node:fs'
import type { AgentHandle, AgentOptions } from '@tack/agent'
import type { SessionSummary } from '@tack/session'
import type { Context } from 'cordis'
import { agentOptionsFor, bootAgent } from '../agent-boot.ts'
import { checkRuleTools } from '../cli-rules.ts'
import { HEADLESS_PERMISSION_MODE, resumedModeNotices } from '../run/permission-report.ts'
import { applyResumeFlags } from '../resume-switches.ts'
import { type Resolved, resolveWorkspaceSettings } from '../settings.ts'
import type { ToolRegistry } from '@tack/tools'
import type * as Api from './api.ts'
import { provideApprover } from './approval.ts'
import { asTackError, reported, TackError } from './errors.ts'
import { type CheckedOptions, checkOptions, redactorFor, workspaceOf } from './options.ts'
import { listStored, readStored, sessionToRun } from './stored.ts'
import type { Redactor } from '../secrets.ts'
import { LibrarySession } from './session.ts'

export type * from './api.ts'
export { TackError }

export const VERSION: typeof Api.VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version

export const isEvent: typeof Api.isEvent = <T extends keyof Api.TackEventMap>(
  event: Api.TackEvent,
  type: T,
): event is Api.TackEvent<T> => event.type === type

export const openSession: typeof Api.openSession = (options) =>
  guarded(options, async (redact) => {
    const cwd = workspaceOf(options?.cwd)
    const checked = checkOptions(options, cwd, redact)
    return start(options, checked, undefined, (ctx, agentOptions) =>
      // Stored from its first turn, as the interactive screen's sessions (docs/decisions/0320-small-things.md):
      // a session opened and never prompted (a worker that died first) leaves nothing to list or continue.
      ctx.agents.create({ cwd, options: agentOptions, storeFromFirstTurn: true }),
    )
  })

export const resumeSession: typeof Api.resumeSession = (id, options = {}) =>
  guarded(options, async (redact) => {
    const stored = await sessionToRun(id, options, redact)
    const checked = checkOptions(options, stored.cwd, redact)
    return start(options, checked, stored, (ctx, agentOptions) => ctx.agents.resume(stored.id, agentOptions))
  })

export const listSessions: typeof Api.listSessions = (options = {}) =>
  guarded(options, (redact) => listStored(options, redact))

export const readSession: typeof Api.readSession = (id, options = {}) =>
  guarded(options, (redact) => readStored(id, options, redact))

export const forkSession: typeof Api.forkSession = (id, options = {}) =>
  guarded(options, async (redact) => {
    const stored = await sessionToRun(id, options, redact)
    const checked = checkOptions(options, stored.cwd, redact)
    const at = options.atSeq !== undefined ? { atSeq: options.atSeq } : {}
    return start(options, checked, stored, (ctx, agentOptions) =>
      ctx.agents.fork(stored.id, at, agentOptions),
    )
  })

type Starter = (ctx: Context, options: AgentOptions) => Promise<AgentHandle>

/** Runs an entry point with one redactor for its warnings and its errors (secrets never reach output). */
function guarded<T>(
  options: Api.ResumeOptions | undefined,
  work: (redact: Redactor) => Promise<T>,
): Promise<T> {
  let redact: Redactor
  try {
    redact = redactorFor(options)
  } catch (error) {
    return Promise.reject(asTackError(error))
  }
  return reported(() => work(redact), redact)
}

/** Boots the workspace, starts the agent, applies what the options change in a stored session, and wraps it. */
async function start(
  options: Api.SessionOptions | Api.ResumeOptions,
  checked: CheckedOptions,
  /** The stored session a resume or fork starts from. */
  stored: SessionSummary | undefined,
  starter: Starter,
): Promise<Api.TackSession> {
  const metadata = metadataOf(options.metadata)
  const resolved = withStoredModel(
    await resolveWorkspaceSettings(checked.settings, checked.env, checked.processCwd),
    stored,
  )
  const { booted, model, modelProblem } = await bootAgent({
    resolved,
    env: checked.env,
    processCwd: checked.processCwd,
    warn: checked.warn,
    cliRules: checked.cliRules,
    mods: checked.mods,
    sandboxWritable: checked.sandboxWritable,
    // what the plugins declare secret (an MCP server's literal env value) is redacted too
    protectSecrets: (names, values) => checked.redact.protect(names, values),
  })
  let handle: AgentHandle | undefined
  try {
    const { ctx } = booted
    // Not deferred, so a boot without a model has already thrown; this narrows the type.
    if (model === undefined) throw modelProblem ?? new TackError('config', 'no model is configured')
    checkRuleTools(checked.cliRules, ctx.get('tools') as ToolRegistry | undefined)
    const { costOf } = await import('@tack/llm')
    if (options.maxCostUsd !== undefined && costOf(model, { inputTokens: 1, outputTokens: 1 }) === undefined)
      throw new TackError(
        'usage',
        `maxCostUsd needs the price of ${model}, which the model catalogue does not list; drop the limit or use a priced model`,
      )
    let id = ''
    if (options.onApproval) await provideApprover(ctx, () => id, options.onApproval, checked.redact)
    const permissionMode = resolved.settings.permissionMode ?? HEADLESS_PERMISSION_MODE
    handle = await starter(ctx, agentOptionsFor(resolved.settings, model, permissionMode, { headless: true }))
    const agent = handle.agent
    id = agent.session.id
    if (stored) await applyOptionSwitches(ctx, handle, options, resolved, permissionMode, checked.warn)
    if (metadata) agent.session.append('session/metadata', metadata)
    return new LibrarySession({
      booted,
      handle,
      costOf,
      redact: checked.redact,
      ...(options.maxCostUsd !== undefined ? { maxCostUsd: options.maxCostUsd } : {}),
    })
  } catch (error) {
    await handle?.dispose('error').catch(() => {})
    await booted.close()
    throw error
  }
}

/**
 * With no model given or configured, a stored session goes on with the model it last ran with, rather
 * than refusing: the caller named the session, and its log says which model that is.
 */
function withStoredModel(resolved: Resolved, stored: SessionSummary | undefined): Resolved {
  if (resolved.settings.model !== undefined || stored?.model === undefined) return resolved
  return { ...resolved, settings: { ...resolved.settings, model: stored.model } }
}

/**
 * A resumed or forked session keeps the switches its log holds; an option given now is a new switch,
 * logged like theirs, as `tack run -r` does with its flags (resume-switches.ts).
 */
async function applyOptionSwitches(
  ctx: Context,
  handle: AgentHandle,
  options: Api.ResumeOptions,
  resolved: Resolved,
  permissionMode: string,
  warn: (line: string) => void,
): Promise<void> {
  const { settings } = resolved
  const given = {
    ...(options.model !== undefined && settings.model ? { model: settings.model } : {}),
    ...(options.effort !== undefined && settings.effort ? { effort: settings.effort } : {}),
  }
  const modes = {
    ...(options.permissionMode !== undefined ? { 'permission-mode': options.permissionMode } : {}),
    ...(options.toolsMode !== undefined ? { 'tools-mode': options.toolsMode } : {}),
  }
  for (const line of await applyResumeFlags(ctx, handle.agent, given, modes)) warn(line)
  const notices = resumedModeNotices(handle.agent, permissionMode)
  if (notices.dropped) warn(notices.dropped)
  if (notices.wider) warn(notices.wider)
}

/** The metadata as the event records it: string values only, none when empty. */
function metadataOf(metadata: Api.SessionMetadata | undefined): Record<string, string> | undefined {
  if (metadata === undefined) return undefined
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    throw new TackError('usage', 'metadata must be an object of string values')
  const out: Record<string, string> = {}
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined) continue
    if (typeof value !== 'string') throw new TackError('usage', `metadata.${key} must be a string`)
    out[key] = value
  }
  return Object.keys(out).length ? out : undefined
}
