// `plugins.skills`: validated like every tunable (00-overview decision 8). `folders` and `trusted` are
// fixed by the CLI's boot role from tack's home, the environment and the trust store
// (apps/tack/src/skills/folders.ts); a config file cannot set them.
import { type ConfigOf, Schema } from '@tack/kernel'
import type { KnowHowKind, KnowHowScope } from './types.ts'

/** One folder to look in: what it holds, whose it is, and how a person would name it. */
export interface KnowHowFolder {
  readonly dir: string
  readonly kind: KnowHowKind
  readonly scope: KnowHowScope
  /** `~/.claude/skills`, `.tack/commands`: how lists and warnings name it. */
  readonly label: string
  /** Named in `plugins.skills.paths`: one that is no folder is a warning (the usual folders may well be absent). */
  readonly configured?: boolean
}

const KINDS: readonly string[] = ['skill', 'command']
const SCOPES: readonly string[] = ['user', 'project']

function isFolderList(v: unknown): v is KnowHowFolder[] {
  return (
    Array.isArray(v) &&
    v.every(
      (f) =>
        typeof f === 'object' &&
        f !== null &&
        typeof f.dir === 'string' &&
        f.dir.startsWith('/') &&
        KINDS.includes(f.kind) &&
        SCOPES.includes(f.scope) &&
        typeof f.label === 'string',
    )
  )
}

/** The largest catalog a config may ask for: past 256 KiB a catalog is no longer a catalog. */
export const CATALOG_MAX_BYTES_LIMIT = 256 * 1024

export const SkillsConfig = Schema.object({
  paths: Schema.stringList({
    default: [],
    description:
      'More folders of skills (each holding <name>/SKILL.md), read as your own (a relative path is resolved against the working folder); one that is no folder is a warning. Set in your own config; a workspace config may not add folders.',
  }),
  catalogMaxBytes: Schema.integer({
    default: 16 * 1024,
    min: 0,
    max: CATALOG_MAX_BYTES_LIMIT,
    description:
      'UTF-8 bytes of the skills catalog (one `name: description` line per skill and command) the model is given with every request; past it the rest are left out with a note naming how many. 0 gives no catalog (the skill tool still loads skills by name).',
  }),
  maxFileBytes: Schema.integer({
    default: 256 * 1024,
    min: 1024,
    max: 16 * 1024 * 1024,
    description:
      'Bytes of one SKILL.md or command file tack reads; a larger one is skipped with a warning naming it.',
  }),
  folders: Schema.json<KnowHowFolder[]>({
    default: [],
    allowed: 'a list of {dir, kind, scope, label}',
    test: isFolderList,
    description:
      'The folders searched, in order (set by tack from $TACK_HOME, ~/.claude, ~/.agents, $CODEX_HOME and the workspace; not for config files).',
  }),
  trusted: Schema.boolean({
    default: false,
    description: 'Whether the workspace is trusted (set by tack from the trust store; not for config files).',
  }),
  cwd: Schema.absolutePath({
    description: 'The workspace folder (set by tack; not for config files).',
  }).optional(),
})
export type SkillsConfig = ConfigOf<typeof SkillsConfig>
