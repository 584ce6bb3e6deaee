// What a project config (`<workspace>/.tack/config.yml`) may set while its workspace is untrusted
// (80-cli.md §4a.2, issue 9 item 1, docs/decisions/0013-workspace-trust.md): only keys that cannot widen
// access, redirect a key or run code — limits, UI and tool options that only narrow, field by field as
// untrusted-fields.ts classifies them. Everything else is
// dropped before the layer is validated (so a project cannot make tack import a plugin of its choosing
// just by naming it) and reported once per run.
import { isPermissionMode, isWiderMode } from '@tack/permissions/modes'
import { catalogEntry } from '../plugin-catalog.ts'
import { untrustedFieldClass } from './untrusted-fields.ts'

export interface UntrustedFilter {
  /** The permission mode the user's own config sets, which a project may narrow but not widen. */
  readonly userPermissionMode?: string
  /** `plugins.agent` of the user's own config: the loop limits a project may only tighten. */
  readonly userAgent?: Readonly<Record<string, unknown>>
}

/**
 * The agent plugin's defaults for the limits a project may tighten (`@tack/agent` AgentConfig; a test keeps
 * them equal). Written out so loading a config does not import the agent loop.
 */
export const AGENT_LIMIT_DEFAULTS = { maxStepsPerTurn: 10000, maxIdenticalCalls: 5 } as const
type AgentLimit = keyof typeof AGENT_LIMIT_DEFAULTS

export interface Filtered {
  readonly kept: Record<string, unknown>
  /** Key paths that were dropped, in file order. */
  readonly refused: string[]
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** A model name alone sends nothing anywhere new, except `scripted/…`, which plays a workspace file as the model. */
const harmlessModel = (v: unknown) => typeof v !== 'string' || !v.startsWith('scripted/')

function narrowsMode(value: unknown, filter: UntrustedFilter): boolean {
  if (!isPermissionMode(value)) return true // invalid: validation reports it
  // Without the user's own mode: 'ask', the narrowest default of any tack mode (interactive).
  const reference = isPermissionMode(filter.userPermissionMode) ? filter.userPermissionMode : 'ask'
  return !isWiderMode(value, reference)
}

/**
 * A loop limit an untrusted project may only lower: a positive integer no larger than the user's own value,
 * else the default. `maxIdenticalCalls: 0` turns the loop detector off, so it counts as no limit at all and
 * raising `maxStepsPerTurn` lifts the turn's bound: both are held back.
 */
const tightensLimit =
  (field: AgentLimit) =>
  (value: unknown, filter: UntrustedFilter): boolean => {
    if (!Number.isInteger(value)) return true // not an integer: validation reports it
    const asLimit = (n: number) => (n <= 0 ? Number.POSITIVE_INFINITY : n) // 0: off
    const own = filter.userAgent?.[field]
    const reference = Number.isInteger(own) ? (own as number) : AGENT_LIMIT_DEFAULTS[field]
    return asLimit(value as number) <= asLimit(reference)
  }

/** The test of each field classified `narrowing`: is this value no wider than what the user allows? */
export const NARROWS: Readonly<Record<string, (value: unknown, filter: UntrustedFilter) => boolean>> = {
  'agent.model': harmlessModel,
  'agent.maxStepsPerTurn': tightensLimit('maxStepsPerTurn'),
  'agent.maxIdenticalCalls': tightensLimit('maxIdenticalCalls'),
  'permissions.mode': narrowsMode,
}

/** Keeps the harmless part of an untrusted project layer; `base` prefixes reported paths (profiles). */
export function keepHarmless(layer: unknown, filter: UntrustedFilter, base = ''): Filtered {
  const refused: string[] = []
  const kept: Record<string, unknown> = {}
  if (!isObject(layer)) return { kept, refused }
  const at = (k: string) => (base ? `${base}.${k}` : k)
  for (const [key, value] of Object.entries(layer)) {
    switch (key) {
      // How hard the model thinks: like the model, a choice of cost, not of access.
      case 'effort':
      case 'toolsMode':
        kept[key] = value
        break
      case 'model':
        if (harmlessModel(value)) kept[key] = value
        else refused.push(at(key))
        break
      case 'permissionMode':
        if (narrowsMode(value, filter)) kept[key] = value
        else refused.push(at(key))
        break
      case 'plugins': {
        const plugins = keepPlugins(value, filter, at(key))
        refused.push(...plugins.refused)
        if (Object.keys(plugins.kept).length) kept[key] = plugins.kept
        break
      }
      case 'profiles': {
        if (base || !isObject(value)) {
          kept[key] = value // validation reports the misplaced or malformed value
          break
        }
        const profiles: Record<string, unknown> = {}
        for (const [name, profile] of Object.entries(value)) {
          const p = keepHarmless(profile, filter, `profiles.${name}`)
          refused.push(...p.refused)
          profiles[name] = isObject(profile) ? p.kept : profile
        }
        kept[key] = profiles
        break
      }
      default:
        // baseUrl, and unknown keys: an unknown key could be a typo of a harmful one; drop it.
        refused.push(at(key))
    }
  }
  return { kept, refused }
}

function keepPlugins(value: unknown, filter: UntrustedFilter, base: string): Filtered {
  if (!isObject(value)) return { kept: {}, refused: [base] }
  const kept: Record<string, unknown> = {}
  const refused: string[] = []
  for (const [plugin, config] of Object.entries(value)) {
    // turning a plugin on or off (the permission gate, a hook bridge) or naming a plugin of one's own
    if (!isObject(config) || !catalogEntry(plugin)) {
      refused.push(`${base}.${/^\w+$/.test(plugin) ? plugin : JSON.stringify(plugin)}`)
      continue
    }
    const fields: Record<string, unknown> = {}
    for (const [field, v] of Object.entries(config)) {
      // untrustedFieldClass holds back every field it does not know
      const kind = untrustedFieldClass(plugin, field)
      const harmless =
        kind === 'harmless' || (kind === 'narrowing' && NARROWS[`${plugin}.${field}`]?.(v, filter) === true)
      if (harmless) fields[field] = v
      else refused.push(`${base}.${plugin}.${field}`)
    }
    if (Object.keys(fields).length) kept[plugin] = fields
  }
  return { kept, refused }
}
