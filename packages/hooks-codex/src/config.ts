// The bridge's validated configuration (40-hooks.md C1). Folders default from the environment as
// Codex and tack resolve them, so tests and embedders point them at temporary folders. A relative path
// resolves against the process cwd (load-registry.ts); tack's CLI has made every path in a config file
// absolute against that file's folder first (docs/decisions/0130-config-relative-paths.md).
import { type ConfigOf, Schema } from '@tack/kernel'

export const HooksCodexConfig = Schema.object({
  sources: Schema.stringList({
    default: [],
    description:
      'Extra hooks.json files to read once at load (after the discovered ones); a relative one is relative to the config file that sets it.',
  }),
  discover: Schema.boolean({
    default: true,
    description:
      'Also read the files Codex reads: `<codexHome>/hooks.json` and `<projectDir>/.codex/hooks.json`.',
  }),
  codexHome: Schema.string({
    nonEmpty: true,
    description: "Codex's home folder; default `$CODEX_HOME`, else `~/.codex`.",
  }).optional(),
  projectDir: Schema.string({
    nonEmpty: true,
    description:
      'The folder whose `.codex/hooks.json` is the project layer; default the process cwd (tack sets the workspace, `--cwd`).',
  }).optional(),
  dataDir: Schema.string({
    nonEmpty: true,
    description:
      'Where the bridge keeps its files: the hook-hash trust store `codex-hook-trust.json` (written by `tack hooks trust`) and the transcripts (`codex-transcripts/`, unless `transcriptDir`); default `$TACK_HOME`, else `~/.tack`. Workspace trust is not read from here: see `tackHome`.',
  }).optional(),
  tackHome: Schema.string({
    nonEmpty: true,
    description:
      "tack's home, whose `trusted-workspaces.json` (written by `tack trust`) decides whether the project layer is read; default `$TACK_HOME`, else `~/.tack`. The tack CLI always sets its own home here (a configured value is ignored), so moving `dataDir` never moves workspace trust.",
  }).optional(),
  transcriptDir: Schema.string({
    nonEmpty: true,
    description:
      'Folder of the Codex-rollout-shaped session files hooks read through `transcript_path`; default `<dataDir>/codex-transcripts`.',
  }).optional(),
  assumeTrusted: Schema.boolean({
    default: false,
    description:
      'Read the project layer (`<projectDir>/.codex/hooks.json`) as if every workspace were trusted. Otherwise its hooks run only in a workspace recorded by `tack trust` — and, as in Codex, only hash-trusted ones. The CLI sets it for `--trust` / `TACK_TRUST=1`.',
  }),
  trust: Schema.enum(['enforce', 'off'], {
    default: 'enforce',
    description:
      '`enforce`: a hook runs only when its current hash is recorded in the trust store (`tack hooks trust`); `off`: every hook runs (warned once).',
  }),
  stderrSummaryMaxChars: Schema.integer({
    min: 1,
    max: 100_000,
    default: 500,
    description: 'Characters of a hook’s stderr kept in `hook/result.stderrSummary` (then `…`).',
  }),
  maxConsecutiveStopBlocks: Schema.integer({
    min: 1,
    max: 100,
    default: 8,
    description:
      'Forced continuations by Stop hooks in a row before the next block is overridden and the turn ends.',
  }),
  awaitSessionStart: Schema.boolean({
    default: true,
    description:
      "Hold the first prompt until the SessionStart hooks have run (a subagent's task: its SubagentStart hooks), so their context reaches the first request (Codex runs them before the first turn).",
  }),
})

export type HooksCodexConfig = ConfigOf<typeof HooksCodexConfig>
