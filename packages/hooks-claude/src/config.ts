// The bridge's validated Config (40-hooks.md B1, overview decision 8). Paths a deployment sets (home,
// data folder, tack's home, transcript folder, project dir) are absolute; `sources` are resolved against the
// process cwd once, at load. tack's CLI makes every relative path in a config file absolute against that
// file's folder before this schema sees it (docs/decisions/0130-config-relative-paths.md).
import { type ConfigOf, Schema } from '@tack/kernel'

/** A configured hooks source: a settings file (its `hooks` key) or, with `pluginRoot`, a plugin `hooks.json`. */
export interface SourceSpec {
  readonly path: string
  readonly pluginRoot?: string
}

const isSourceList = (v: unknown): v is SourceSpec[] =>
  Array.isArray(v) &&
  v.every(
    (s) =>
      s !== null &&
      typeof s === 'object' &&
      !Array.isArray(s) &&
      typeof (s as SourceSpec).path === 'string' &&
      (s as SourceSpec).path.length > 0 &&
      ((s as SourceSpec).pluginRoot === undefined || typeof (s as SourceSpec).pluginRoot === 'string') &&
      Object.keys(s).every((k) => k === 'path' || k === 'pluginRoot'),
  )

const absolutePath = (description: string) => Schema.absolutePath({ description }).optional()

export const HooksClaudeConfig = Schema.object(
  {
    sources: Schema.json<SourceSpec[]>({
      default: [],
      allowed: 'a list of {path, pluginRoot?} (non-empty strings)',
      test: isSourceList,
      description:
        'Extra hook sources, read once at load: a settings file (its `hooks` key is used) or, with `pluginRoot`, a plugin `hooks.json`. A relative `path` or `pluginRoot` is relative to the config file that sets it.',
    }),
    discover: Schema.boolean({
      default: true,
      description:
        'Also read the files Claude Code reads: `<home>/.claude/settings.json`, `<workspace>/.claude/settings.json` and `<workspace>/.claude/settings.local.json`.',
    }),
    projectDir: absolutePath("`CLAUDE_PROJECT_DIR` for every hook. Default: the session's workspace."),
    stderrSummaryMaxChars: Schema.integer({
      default: 500,
      min: 1,
      max: 100_000,
      description: 'Characters of a hook’s stderr kept in `hook/result.stderrSummary` (then `…`).',
    }),
    maxConsecutiveStopBlocks: Schema.integer({
      default: 8,
      min: 1,
      max: 100,
      description:
        'Forced continuations by Stop hooks in a row after which the next block is overridden and the turn stops (with a warning).',
    }),
    awaitSessionStart: Schema.boolean({
      default: true,
      description:
        "Hold a session's first prompt (and a subagent's) until its SessionStart (SubagentStart) hooks are done, so their context reaches the first request.",
    }),
    configWatchDebounceMs: Schema.integer({
      default: 200,
      min: 10,
      max: 10_000,
      description:
        'Quiet time (ms) after a change to a watched Claude settings file before ConfigChange fires and its hooks are read again (editors write a file in several steps).',
    }),
    transcriptDir: absolutePath(
      'Folder of the Claude-Code-shaped transcripts hooks read through `transcript_path`. Default `<dataDir>/claude-transcripts`.',
    ),
    home: absolutePath('The home folder whose `.claude/settings.json` is discovered. Default: the OS home.'),
    dataDir: absolutePath(
      'Where the bridge keeps its files: transcripts (`claude-transcripts/`, unless `transcriptDir`), spilled hook output (`claude-hook-output/`), `CLAUDE_ENV_FILE`s (`claude-env/`), plugin data (`claude-plugins/<plugin>/data`). Default `$TACK_HOME`, else `<home>/.tack`. Workspace trust is not read from here: see `tackHome`.',
    ),
    tackHome: absolutePath(
      "tack's home, whose `trusted-workspaces.json` (written by `tack trust`) decides where project-level hooks run. Default `$TACK_HOME`, else `<home>/.tack`. The tack CLI always sets its own home here (a configured value is ignored), so moving `dataDir` never moves trust.",
    ),
    assumeTrusted: Schema.boolean({
      default: false,
      description:
        'Run project-level hooks (`<workspace>/.claude/…`) as if every workspace were trusted. Otherwise they run only in a workspace recorded by `tack trust` (in `<tackHome>/trusted-workspaces.json`). The CLI sets it for `--trust` / `TACK_TRUST=1`.',
    }),
  },
  { description: 'The Claude Code hooks bridge (@tack/hooks-claude).' },
)

export type HooksClaudeConfig = ConfigOf<typeof HooksClaudeConfig>
